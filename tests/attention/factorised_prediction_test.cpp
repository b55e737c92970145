// The factorised (Gram-product) delta-method prediction against the direct per-row double sum:
// the mpmath reference problems and random problems (bidirectional and causal, small to large
// norms) agree to 1e-12 relative on every row's log T, log F and log Var D̂, for every mechanism
// with a same-query covariance.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/attention/attention_parameters.h"
#include "core/attention/attention_prediction.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"
#include "tests/attention/attention_test_support.h"

namespace rfscope {
namespace {

// Largest relative difference of the logs (absolute below 1), and how many rows differ at all
// (none would mean the factorised path was never taken; at large norms many logs agree to the
// last bit).
struct Comparison {
  double worst = 0;
  int differing = 0;
};

Comparison compare(const AttentionPrediction& a, const AttentionPrediction& b) {
  Comparison c;
  const auto rel = [](double x, double y) {
    if (x == y) return 0.0;
    return std::abs(x - y) / std::max(1.0, std::abs(y));
  };
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    const double diff =
        std::max({rel(a.rows[i].logT, b.rows[i].logT), rel(a.rows[i].logF, b.rows[i].logF),
                  rel(a.rows[i].logVarianceD, b.rows[i].logVarianceD)});
    c.worst = std::max(c.worst, diff);
    if (diff > 0) ++c.differing;
    EXPECT_LT((a.rows[i].output - b.rows[i].output).norm(), 1e-13 * b.rows[i].output.norm());
  }
  return c;
}

TEST(FactorisedPrediction, EqualsTheDirectSumOnRandomProblems) {
  const std::vector<Eigen::Index> everyThird = [] {
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < 200; i += 4)
      rows.push_back(i);
    return rows;
  }();
  double worst = 0;
  for (const bool causal : {false, true})
    for (const double norm : {0.3, 1.0, 2.5})
      for (const char* id : {"trig", "trig-phase", "pos", "pos-hyp", "oprf"}) {
        const AttentionProblem p = test::problemOfNorm(200, 16, 5, norm, 7, causal);
        const KeyGram gram(p);
        const Mechanism& mechanism = *findMechanism(id);
        const ParameterSet params = attentionParameters(mechanism, p);
        const auto factorised =
            predictAttention(p, gram, mechanism, params, everyThird, PredictionMethod::Factorised);
        const auto direct =
            predictAttention(p, gram, mechanism, params, everyThird, PredictionMethod::Direct);
        ASSERT_TRUE(factorised && direct) << id;
        const Comparison c = compare(*factorised, *direct);
        const std::string what =
            std::string(id) + " |x| " + std::to_string(norm) + (causal ? " causal" : "");
        EXPECT_LT(c.worst, 1e-12) << what;
        EXPECT_GT(c.differing, 0) << what << ": the factorised path was not taken";
        EXPECT_NEAR(factorised->logOutputMse, direct->logOutputMse,
                    1e-12 * std::max(1.0, std::abs(direct->logOutputMse)))
            << what;
        worst = std::max(worst, c.worst);
      }
  ::testing::Test::RecordProperty("worst relative difference",
                                  (std::ostringstream() << worst).str());
}

}  // namespace
}  // namespace rfscope
