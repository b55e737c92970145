// The heavy-tail verdict against the truth: over many seeds, the 95% intervals of runs that are
// not flagged cover the exact variance 93-97% of the time, while runs whose exact moments call for
// more trials than they have (exact_tail.h) are flagged — e.g. PosRF at |x + y| = 2.58, where
// plain batch means missed the exact value in 2 of 6 runs without a flag.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/analytic/analytic_variance.h"
#include "core/montecarlo/exact_tail.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

struct CoverageCase {
  std::string mechanism;
  double sum;         // |x + y|
  double difference;  // |x - y|
  std::int64_t features;
};

struct Tally {
  int runs = 0, flagged = 0, unflagged = 0, covered = 0;
};

Tally coverage(const CoverageCase& c, int seeds, std::int64_t trials) {
  MonteCarloRequest request;
  request.mechanism = findMechanism(c.mechanism);
  request.features = c.features;
  request.trials = trials;
  request.storedSamples = 0;
  request.quantileLevels = {};
  // d = 4: x + y along e₁, x - y along e₂.
  request.x = Eigen::VectorXd::Zero(4);
  request.x[0] = c.sum / 2;
  request.x[1] = c.difference / 2;
  request.y = request.x;
  request.y[1] = -request.x[1];
  const AnalyticAnswer exact = evaluateAnalytic(request, request.x, request.y);
  EXPECT_TRUE(exact.variance) << c.mechanism;
  Tally tally;
  if (!exact.variance) return tally;
  for (int seed = 1; seed <= seeds; ++seed) {
    request.seed = static_cast<std::uint64_t>(seed);
    const auto result = runMonteCarlo(request, {});
    EXPECT_TRUE(result) << result.reason();
    if (!result) return tally;
    ++tally.runs;
    if (result->heavyTail) {
      ++tally.flagged;
      continue;
    }
    ++tally.unflagged;
    const double v = exact.variance->logVariance;
    if (result->logCi95Low <= v && v <= result->logCi95High) ++tally.covered;
  }
  return tally;
}

// The exact tail against mpmath (tests/reference/generate_exact_tail_references.py: raw moments
// derived per mechanism, not from the C++ term expansion).
TEST(ExactTail, MatchesHighPrecisionReferences) {
  std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/exact_tail_references.json");
  const nlohmann::json references = nlohmann::json::parse(in);
  ASSERT_GE(references["cases"].size(), 8u);
  for (const auto& c : references["cases"]) {
    MonteCarloRequest request;
    request.mechanism = findMechanism(c["mechanism"].get<std::string>());
    request.features = c["features"].get<std::int64_t>();
    if (c.contains("A")) request.parameters.set("A", std::stod(c["A"].get<std::string>()));
    request.x = Eigen::VectorXd::Zero(c["d"].get<int>());
    request.x[0] = std::stod(c["sum"].get<std::string>()) / 2;
    request.x[1] = std::stod(c["difference"].get<std::string>()) / 2;
    request.y = request.x;
    request.y[1] = -request.x[1];
    const auto plan = makeSamplingPlan(request);
    ASSERT_TRUE(plan) << plan.reason();
    const auto tail = exactTail(*plan, kBatchCount);
    ASSERT_TRUE(tail) << c.dump();
    const double kurtosis = std::stod(c["kurtosis"].get<std::string>());
    const double skewness = std::stod(c["error_skewness"].get<std::string>());
    // Central moments of light tails lose digits to cancellation (trig at |x - y| = 0.2: 2e-9).
    EXPECT_NEAR(tail->kurtosis / kurtosis, 1.0, 1e-7) << c.dump();
    EXPECT_NEAR(tail->errorSkewness / skewness, 1.0, 1e-7) << c.dump();
    EXPECT_NEAR(tail->trialsNeeded / (kBatchCount * skewness * skewness / 25), 1.0, 1e-7);
  }
  // No closed-form moments: coupled frequencies, discrete mechanisms.
  MonteCarloRequest request;
  request.mechanism = findMechanism("pos");
  request.coupling = Coupling::Orthogonal;
  request.x = request.y = Eigen::VectorXd::Constant(4, 0.1);
  EXPECT_FALSE(exactTail(*makeSamplingPlan(request), kBatchCount));
  request.coupling = Coupling::Iid;
  request.mechanism = findMechanism("pois");
  EXPECT_FALSE(exactTail(*makeSamplingPlan(request), kBatchCount));
}

TEST(IntervalCoverage, UnflaggedIntervalsCoverTheExactVariance) {
  // From light to heavy tails: PosRF (lognormal features of log-spread |x + y|), OPRF, TrigRF.
  const std::vector<CoverageCase> cases{
      {"pos", 0.4, 0.3, 1},  {"pos", 0.7, 0.3, 1},  {"pos", 0.9, 0.3, 1},
      {"pos", 1.1, 0.3, 1},  {"pos", 1.3, 0.3, 4},  {"pos", 2.58, 0.3, 1},
      {"oprf", 2.0, 0.5, 1}, {"trig", 0.5, 1.5, 1}, {"trig-phase", 0.8, 1.2, 2},
  };
  constexpr int kSeeds = 200;
  constexpr std::int64_t kTrials = 32000;
  Tally total;
  for (const CoverageCase& c : cases) {
    const Tally t = coverage(c, kSeeds, kTrials);
    std::printf(
        "%-10s |x+y| = %.2f |x-y| = %.2f M = %lld: %d of %d flagged, %d of %d unflagged "
        "intervals cover\n",
        c.mechanism.c_str(), c.sum, c.difference, static_cast<long long>(c.features), t.flagged,
        t.runs, t.covered, t.unflagged);
    total.runs += t.runs;
    total.flagged += t.flagged;
    total.unflagged += t.unflagged;
    total.covered += t.covered;
    // The heaviest pair is beyond any interval this size: flagged every time.
    if (c.sum > 2.5) {
      EXPECT_EQ(t.flagged, t.runs) << c.mechanism << " at |x + y| = " << c.sum;
    }
    // Light tails keep their intervals.
    if (c.mechanism == "pos" && c.sum < 0.8) {
      EXPECT_EQ(t.flagged, 0) << "|x + y| = " << c.sum;
    }
  }
  ASSERT_GE(total.unflagged, 1000);  // a verdict that flags everything would pass vacuously
  const double rate = static_cast<double>(total.covered) / total.unflagged;
  std::printf("unflagged intervals covering the exact variance: %d of %d (%.3f)\n", total.covered,
              total.unflagged, rate);
  EXPECT_GE(rate, 0.93);
  EXPECT_LE(rate, 0.97);
}

}  // namespace
}  // namespace rfscope
