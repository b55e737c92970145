// The one-unit prediction of the output error (output_error_prediction.h) against what it must
// equal: the delta method's closed form where the ratio is linearised, direct Monte Carlo where
// the estimate is a single unit (the saturated form is then exact), and itself for any number of
// threads.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <tbb/global_control.h>

#include "core/attention/attention_parameters.h"
#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/attention/output_error_prediction.h"
#include "core/attention/rf_attention.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"
#include "tests/attention/attention_test_support.h"

namespace rfscope {
namespace {

// Problems with |x| ≈ norm and three value columns, from seed 11.
AttentionProblem problemWithNorm(Eigen::Index length, int d, double norm, bool causal) {
  return test::problemOfNorm(length, d, 3, norm, 11, causal);
}

// i.i.d. features, one per unit: the linearised form is Σ_i E|e_i|²/M / Σ|o_i|², the delta
// method's T_i/(M D_i²) summed — its closed form. Signed TrigRF is linearised at every M;
// positive PosRF at small norms is linear at large M (the saturation vanishes as 1/M).
TEST(OutputErrorPrediction, LinearisedFormEqualsTheDeltaMethodsClosedForm) {
  QuadratureBudget precise;  // 0.5% of the rms error: a 4-SE agreement is then within 4%
  precise.targetError = 0.005;
  precise.most = std::int64_t{1} << 20;
  for (const bool causal : {false, true})
    for (const char* id : {"trig", "pos"}) {
      const AttentionProblem p = problemWithNorm(48, 6, 0.5, causal);
      const std::vector<Eigen::Index> rows = test::allRows(p);
      const Mechanism& mechanism = *findMechanism(id);
      const FeatureMapSpec spec = attentionFeatureSpec(mechanism, p, Coupling::Iid);
      const std::int64_t m = 1 << 20;
      const auto unit =
          predictOutputError(p, exactAttention(p), rows, mechanism, spec, {m}, 5, precise);
      const auto delta = predictAttention(p, KeyGram(p), mechanism, spec.parameters, rows);
      ASSERT_TRUE(unit && delta) << id;
      EXPECT_EQ(unit->saturated, std::string(id) == "pos");
      const double closedForm =
          std::exp(delta->logOutputMse - delta->logOutputNormSquared) / static_cast<double>(m);
      const double sampled = unit->relativeSquared[0], error = unit->standardError[0];
      EXPECT_LT(error, 0.011 * sampled) << id;
      EXPECT_NEAR(sampled, closedForm, 4 * error) << id << (causal ? " causal" : "");
      EXPECT_NEAR(unit->normaliserCoverage, 1.0, 0.02) << id;
    }
}

// Mean over draws of Σ_i |ô_i - o_i|² / Σ_i |o_i|² for M features, and its standard error.
std::pair<double, double> measuredMeanSquare(const AttentionProblem& p, const Mechanism& mechanism,
                                             FeatureMapSpec spec, std::int64_t m, int draws) {
  const ExactAttention exact = exactAttention(p);
  spec.features = m;
  double sum = 0, sumSquares = 0;
  for (int r = 0; r < draws; ++r) {
    TrialStream stream(99, static_cast<std::uint64_t>(r));
    const auto map = mechanism.drawFeatureMap(spec, stream);
    const RfAttention a = rfAttention(p, (*map)->queries(p.queries), (*map)->keys(p.keys));
    const double v = (a.output() - exact.output).squaredNorm() / exact.output.squaredNorm();
    sum += v;
    sumSquares += v * v;
  }
  const double mean = sum / draws;
  return {mean, std::sqrt((sumSquares / draws - mean * mean) / draws)};
}

// A single unit — M ≤ d under orthogonal or simplex blocks, M = 1 i.i.d. — is the whole estimate,
// so the saturated form |e_r|²/s_r² is the exact squared error: the quadrature equals direct Monte
// Carlo of the estimate, which also checks that a partial block is the first r directions.
TEST(OutputErrorPrediction, OneUnitIsTheWholeEstimate) {
  const AttentionProblem p = problemWithNorm(24, 8, 1.0, false);
  const std::vector<Eigen::Index> rows = test::allRows(p);
  const Mechanism& pos = *findMechanism("pos");
  for (const auto& [coupling, m] : std::vector<std::pair<Coupling, std::int64_t>>{
           {Coupling::Iid, 1}, {Coupling::Orthogonal, 3}, {Coupling::Simplex, 8}}) {
    const FeatureMapSpec spec = attentionFeatureSpec(pos, p, coupling);
    const auto unit = predictOutputError(p, exactAttention(p), rows, pos, spec, {m}, 3);
    ASSERT_TRUE(unit);
    const auto [measured, measuredError] = measuredMeanSquare(p, pos, spec, m, 20000);
    const double error = std::hypot(unit->standardError[0], measuredError);
    EXPECT_NEAR(unit->relativeSquared[0], measured, 4 * error) << couplingId(coupling);
    EXPECT_LT(error, 0.05 * measured) << couplingId(coupling);
  }
}

TEST(OutputErrorPrediction, SameNumbersForAnyThreadCount) {
  const AttentionProblem p = problemWithNorm(40, 8, 1.0, true);
  const std::vector<Eigen::Index> rows{0, 7, 19, 39};
  const Mechanism& oprf = *findMechanism("oprf");
  const FeatureMapSpec spec = attentionFeatureSpec(oprf, p, Coupling::Orthogonal);
  const std::vector<std::int64_t> features{3, 8, 20, 64};
  const auto run = [&] {
    return *predictOutputError(p, exactAttention(p), rows, oprf, spec, features, 8);
  };
  const OutputErrorPrediction many = run();
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const OutputErrorPrediction single = run();
  EXPECT_EQ(many.relativeSquared, single.relativeSquared);
  EXPECT_EQ(many.standardError, single.standardError);
  EXPECT_EQ(many.spreadSquared, single.spreadSquared);
  EXPECT_EQ(many.unitSize, 8);
}

TEST(OutputErrorPrediction, RefusesUnitsThatAreNotIndependentOrUnbiased) {
  const AttentionProblem p = problemWithNorm(8, 4, 0.5, false);
  const Mechanism& pos = *findMechanism("pos");
  for (const Coupling c : {Coupling::QmcSobol, Coupling::OrthogonalFixedNorm}) {
    const auto unit = predictOutputError(p, exactAttention(p), test::allRows(p), pos,
                                         attentionFeatureSpec(pos, p, c), {8}, 1);
    EXPECT_FALSE(unit) << couplingId(c);
  }
}

}  // namespace
}  // namespace rfscope
