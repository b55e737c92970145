// Random-feature attention: one draw equals a brute-force implementation (bidirectional and
// causal), exact attention equals the naive softmax, and Monte Carlo over many draws agrees with
// the predictions inside 99.9% intervals: the exact unnormalised MSE and the exact mean square of
// the linearised output error (the delta method's quantity), for every exponential mechanism and
// trig. The delta method's approximation ô ≈ o + ε is checked only as far as it is claimed: close
// to the measured output error where the normaliser's spread is small.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/attention/attention_parameters.h"
#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/attention/rf_attention.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/params/invalid_parameter.h"
#include "core/random/philox_stream.h"
#include "core/random/trial_stream.h"
#include "tests/attention/attention_test_support.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

// L rows of N(0, scale²) entries (queries, keys) and N(0, 1) values, from a fixed stream.
AttentionProblem randomProblem(Eigen::Index length, int d, Eigen::Index dv, double scale,
                               std::uint64_t seed, bool causal = false) {
  TrialStream stream(seed, 0);
  return gaussianAttentionProblem(length, d, dv, scale, stream, causal);
}

TEST(ExactAttention, EqualsTheNaiveSoftmaxInBlocksAndCausally) {
  for (const bool causal : {false, true}) {
    const AttentionProblem p = randomProblem(300, 5, 3, 0.8, 11, causal);  // two blocks of rows
    const ExactAttention exact = exactAttention(p);
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      const Eigen::Index n = p.keyCount(i);
      const Eigen::VectorXd logits = p.keys.topRows(n) * p.queries.row(i).transpose();
      const Eigen::VectorXd e = logits.array().exp().matrix();
      EXPECT_NEAR(exact.logNormaliser[i], std::log(e.sum()), 1e-12);
      const Eigen::VectorXd o = p.values.topRows(n).transpose() * e / e.sum();
      EXPECT_LT((exact.output.row(i).transpose() - o).norm(), 1e-13);
    }
  }
}

TEST(RfAttention, OneDrawEqualsBruteForce) {
  for (const Mechanism* mechanism : allMechanisms()) {
    const std::string id = mechanism->info().id;
    if (id.find("pois") != std::string::npos || id.find("geom") != std::string::npos) continue;
    for (const bool causal : {false, true}) {
      const AttentionProblem p = randomProblem(12, 4, 2, 0.6, 3, causal);
      TrialStream stream(7, 0);
      const auto map =
          mechanism->drawFeatureMap(attentionFeatureSpec(*mechanism, p, Coupling::Iid, 6), stream);
      ASSERT_TRUE(map) << id << map.reason();
      const FeatureMatrix q = (*map)->queries(p.queries), k = (*map)->keys(p.keys);
      Eigen::MatrixXd s = kernelEstimates(q, k);  // Ŝ, plain
      for (Eigen::Index i = 0; i < p.rows(); ++i)
        s.row(i).tail(p.keys.rows() - p.keyCount(i)).setZero();
      const Eigen::VectorXd d = s.rowwise().sum();
      const Eigen::MatrixXd brute = d.cwiseInverse().asDiagonal() * (s * p.values);
      const RfAttention rf = rfAttention(p, q, k);
      EXPECT_LT((rf.output() - brute).cwiseAbs().maxCoeff(), 1e-10) << id << causal;
      for (Eigen::Index i = 0; i < p.rows(); ++i)
        EXPECT_NEAR(rf.normaliser[i] * std::exp(rf.logScale[i]), d[i],
                    1e-12 * std::abs(d[i]) + 1e-14)
            << id;

      // The errors of the draw, brute force too.
      const ExactAttention exact = exactAttention(p);
      const ExactAttentionRows rows = exactAttentionRows(p, test::allRows(p));
      const AttentionErrors errors = attentionErrors(p, exact, rows, q, k);
      const Eigen::MatrixXd a = d.cwiseInverse().asDiagonal() * s;
      EXPECT_NEAR(errors.attentionRelativeError,
                  (a - rows.attention).norm() / rows.attention.norm(), 1e-10);
      EXPECT_NEAR(errors.outputRelativeError, (brute - exact.output).norm() / exact.output.norm(),
                  1e-10);
      double worst = 0, smError = 0, smNorm = 0;
      for (Eigen::Index i = 0; i < p.rows(); ++i) {
        worst = std::max(worst, 0.5 * (a.row(i) - rows.attention.row(i)).cwiseAbs().sum());
        const Eigen::RowVectorXd sm = rows.attention.row(i) * std::exp(exact.logNormaliser[i]);
        smError += (s.row(i) - sm).squaredNorm();
        smNorm += sm.squaredNorm();
      }
      EXPECT_NEAR(errors.worstRowTotalVariation, worst, 1e-10);
      EXPECT_NEAR(errors.logUnnormalisedSquaredError, std::log(smError), 1e-9);
      EXPECT_NEAR(errors.logUnnormalisedNormSquared, std::log(smNorm), 1e-12);
      EXPECT_EQ(errors.nonPositiveFraction,
                static_cast<double>((d.array() <= 0).count()) / static_cast<double>(p.rows()));
    }
  }
}

TEST(RfAttention, HugeNormsStayFinite) {
  // |x|² ≈ 100: the softmax features exceed e^100; the output error stays a finite number.
  const AttentionProblem p = randomProblem(8, 4, 2, 5.0, 5);
  const Mechanism& pos = *findMechanism("pos");
  TrialStream stream(1, 0);
  const auto map = pos.drawFeatureMap(attentionFeatureSpec(pos, p, Coupling::Iid, 64), stream);
  const FeatureMatrix q = (*map)->queries(p.queries), k = (*map)->keys(p.keys);
  const AttentionErrors errors =
      attentionErrors(p, exactAttention(p), exactAttentionRows(p, test::allRows(p)), q, k);
  EXPECT_TRUE(std::isfinite(errors.outputRelativeError));
  EXPECT_TRUE(std::isfinite(errors.logUnnormalisedSquaredError));
  EXPECT_GT(errors.logUnnormalisedNormSquared, 50.0);
}

TEST(RfAttention, BadShapesAreRejectedByName) {
  AttentionProblem p = randomProblem(4, 3, 2, 1.0, 1);
  p.values.conservativeResize(3, 2);
  EXPECT_THROW(checkAttentionProblem(p, "values-file"), InvalidParameter);
  p = randomProblem(4, 3, 2, 1.0, 1, true);
  p.keys.conservativeResize(5, 3);
  p.values.conservativeResize(5, 2);
  EXPECT_THROW(checkAttentionProblem(p, "keys-file"), InvalidParameter);
  p = randomProblem(4, 3, 2, 1.0, 1);
  p.queries(0, 0) = std::nan("");
  EXPECT_THROW(checkAttentionProblem(p, "queries-file"), InvalidParameter);
}

// Monte Carlo: draws × (mean of Σ(Ŝ - SM)², mean of Σ|ε_i|²) against the closed forms.
// Bidirectional: every exponential mechanism and trig; causal (prefix sums, rows seeing 1..L keys):
// PosRF and TrigRF.
void expectMonteCarloAgreement(bool causal, std::initializer_list<const char*> mechanisms) {
  const AttentionProblem p =
      randomProblem(16, 8, 3, 0.4 / std::sqrt(8.0), 21, causal);  // |x| ≈ 0.4
  const ExactAttention exact = exactAttention(p);
  const ExactAttentionRows rows = exactAttentionRows(p, test::allRows(p));
  const KeyGram gram(p);
  constexpr std::int64_t kFeatures = 16;
  constexpr int kDraws = 6000;
  for (const char* id : mechanisms) {
    const Mechanism& mechanism = *findMechanism(id);
    FeatureMapSpec spec = attentionFeatureSpec(mechanism, p, Coupling::Iid, kFeatures);
    if (std::string(id) == "gerf") {  // real A, s = +1 (the delta method's GERF)
      spec.parameters.set("A", -0.05);
      spec.parameters.set("A_imag", 0.0);
      spec.parameters.set("s", std::string("+1"));
    }
    double sumU = 0, sumU2 = 0, sumE = 0, sumE2 = 0, sumOut = 0;
    for (int t = 0; t < kDraws; ++t) {
      TrialStream stream(99, static_cast<std::uint64_t>(t));
      const auto map = mechanism.drawFeatureMap(spec, stream);
      const AttentionErrors e =
          attentionErrors(p, exact, rows, (*map)->queries(p.queries), (*map)->keys(p.keys));
      const double u = std::exp(e.logUnnormalisedSquaredError);
      const double lin = e.linearisedOutputRelativeError * e.linearisedOutputRelativeError;
      sumU += u, sumU2 += u * u, sumE += lin, sumE2 += lin * lin;
      sumOut += e.outputRelativeError * e.outputRelativeError;
    }
    const double n = kDraws;
    const auto check = [&](double sum, double sum2, double predicted, const char* what) {
      const double mean = sum / n, sem = std::sqrt((sum2 / n - mean * mean) / (n - 1));
      EXPECT_NEAR(mean, predicted, test::kZ999 * sem) << id << " " << what << " causal " << causal;
      ::testing::Test::RecordProperty(
          std::string(causal ? "causal " : "") + id + " " + what + " measured/predicted",
          std::to_string(mean / predicted));
    };
    const EstimatorSpec estimator{&mechanism, Kernel::Softmax, Coupling::Iid, kFeatures,
                                  spec.parameters};
    const auto unnormalised = predictUnnormalised(p, estimator, test::allRows(p));
    ASSERT_TRUE(unnormalised);
    check(sumU, sumU2, std::exp(unnormalised->logMse), "unnormalised MSE");
    const auto delta = predictAttention(p, gram, mechanism, spec.parameters, test::allRows(p));
    ASSERT_TRUE(delta) << delta.reason();
    const double linearised =
        std::exp(delta->logOutputMse - delta->logOutputNormSquared) / kFeatures;
    check(sumE, sumE2, linearised, "linearised output error");
    // Small normaliser spread (≈ 0.1 here): the delta method within 10% of the measured output MSE.
    EXPECT_LT(std::exp(delta->logMeanRelativeSpreadSquared) / kFeatures, causal ? 0.05 : 0.02)
        << id;
    EXPECT_NEAR(sumOut / n / linearised, 1.0, 0.1) << id << " causal " << causal;
    ::testing::Test::RecordProperty(
        std::string(causal ? "causal " : "") + id + " output MSE measured/delta method",
        std::to_string(sumOut / n / linearised));
  }
}

TEST(RfAttention, MonteCarloMatchesThePredictionsWithin999PercentIntervals) {
  expectMonteCarloAgreement(false, {"trig", "pos", "pos-hyp", "oprf", "gerf"});
}

TEST(RfAttention, CausalMonteCarloMatchesThePredictionsWithin999PercentIntervals) {
  expectMonteCarloAgreement(true, {"trig", "pos"});
}

}  // namespace
}  // namespace rfscope
