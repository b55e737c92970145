// Dense-exponential random features (DERF) against the committed mpmath references
// (tests/reference/derf_references.json, 40 digits): variances, second-moment ratios and
// covariances at explicit (A, Q), and the data-driven SDERF / ADERF (scalar and dense A) optima —
// their objectives, ratios r_l and log-variances at every pair of six sets (d = 2 … 64). OPRF as
// a DERF checks the canonical form against the existing closed form.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/dense_exponential.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/oprf.h"
#include "core/random/trial_stream.h"
#include "tests/analytic/derf_test_support.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

const nlohmann::json& derfReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/derf_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

TEST(DerfReference, ExplicitParametersMatchMpmath) {
  const auto& cases = derfReferences().at("explicit");
  ASSERT_GE(cases.size(), 48u);
  double worstVariance = 0, worstRatio = 0, worstCovariance = 0;
  for (const auto& c : cases) {
    const std::string label = c.at("label");
    const DerfParameters p =
        derfFromMatrices(referenceMatrix(c.at("A")), referenceMatrix(c.at("Q")));
    const Eigen::VectorXd x = referenceVector(c.at("x")), y = referenceVector(c.at("y")),
                          y2 = referenceVector(c.at("y2"));
    const double ratio = derfLogSecondMomentRatio(p, x, y);
    const double expectedRatio = referenceNumber(c.at("log_second_moment_ratio"));
    EXPECT_NEAR(ratio, expectedRatio, 1e-10 * std::max(1.0, std::abs(expectedRatio))) << label;
    worstRatio = std::max(worstRatio, std::abs(ratio - expectedRatio));
    const double logVariance = derfLogVariance(p, x, y);
    const double expected = referenceNumber(c.at("log_variance"));
    EXPECT_NEAR(logVariance, expected, 1e-10 * std::max(1.0, std::abs(expected))) << label;
    worstVariance = std::max(worstVariance, std::abs(logVariance - expected));
    const DerfCovariance covariance = derfCovariance(p, x, y, x, y2);
    EXPECT_EQ(covariance.sign, static_cast<int>(referenceNumber(c.at("covariance_sign")))) << label;
    const double expectedCovariance = referenceNumber(c.at("log_abs_covariance"));
    EXPECT_NEAR(covariance.logAbs, expectedCovariance,
                1e-10 * std::max(1.0, std::abs(expectedCovariance)))
        << label;
    worstCovariance = std::max(worstCovariance, std::abs(covariance.logAbs - expectedCovariance));
  }
  std::printf("  explicit DERF: max |Δ| log variance %.2e, g %.2e, log|Cov| %.2e (%zu cases)\n",
              worstVariance, worstRatio, worstCovariance, cases.size());
}

TEST(DerfReference, DataDrivenOptimaMatchMpmath) {
  double worstObjective = 0, worstR = 0, worstLogVariance = 0;
  for (const auto& set : derfReferences().at("data_driven")) {
    const std::string label = set.at("label");
    const std::vector<Eigen::VectorXd> xs = referenceRows(set.at("xs")),
                                       ys = referenceRows(set.at("ys"));
    const DerfMoments moments = derfMoments(xs, ys);
    const auto& variants = set.at("variants");
    for (const char* id : {"sderf", "aderf", "aderf-dense"}) {
      const auto& expected = variants.at(id);
      const std::string what = label + " " + id;
      const DerfChoice choice = std::string(id) == "sderf"
                                    ? sderfParameters(moments)
                                    : aderfParameters(moments, std::string(id) == "aderf-dense");
      const double objective = referenceNumber(expected.at("objective"));
      EXPECT_NEAR(choice.objective, objective, 1e-9 * std::max(1.0, objective)) << what;
      worstObjective = std::max(worstObjective,
                                std::abs(choice.objective - objective) / std::max(1.0, objective));
      if (expected.contains("trace_W")) {
        const double traceW = referenceNumber(expected.at("trace_W"));
        EXPECT_NEAR(choice.traceW, traceW, 1e-9 * std::max(1.0, traceW)) << what;
      }
      std::vector<double> r;
      for (Eigen::Index l = 0; l < choice.parameters.a.size(); ++l)
        r.push_back(1 - 8 * choice.parameters.a[l]);
      std::sort(r.begin(), r.end());
      const Eigen::VectorXd expectedR = referenceVector(expected.at("r_sorted"));
      std::vector<double> sortedR(expectedR.data(), expectedR.data() + expectedR.size());
      std::sort(sortedR.begin(), sortedR.end());
      ASSERT_EQ(r.size(), sortedR.size()) << what;
      for (std::size_t l = 0; l < r.size(); ++l) {
        EXPECT_NEAR(r[l], sortedR[l], 1e-9 * sortedR[l]) << what << " r_" << l;
        worstR = std::max(worstR, std::abs(r[l] - sortedR[l]) / sortedR[l]);
      }
      const Eigen::VectorXd expectedLog = referenceVector(expected.at("log_variance"));
      double mean = 0;
      for (std::size_t i = 0; i < xs.size(); ++i) {
        const double got = derfLogVariance(choice.parameters, xs[i], ys[i]);
        EXPECT_NEAR(got, expectedLog[static_cast<Eigen::Index>(i)], 1e-9) << what << " pair " << i;
        worstLogVariance =
            std::max(worstLogVariance, std::abs(got - expectedLog[static_cast<Eigen::Index>(i)]));
        mean += got / static_cast<double>(xs.size());
      }
      EXPECT_NEAR(mean, referenceNumber(expected.at("mean_log_variance")), 1e-9) << what;
    }
  }
  std::printf(
      "  data-driven DERF: max relative |Δ| objective %.2e, r %.2e; max |Δ| log variance "
      "%.2e\n",
      worstObjective, worstR, worstLogVariance);
}

TEST(DerfReference, OprfIsTheDerfWithScalarAAndIdentityTransforms) {
  const int d = 5;
  Eigen::VectorXd x(d), y(d);
  x << 0.3, -0.2, 0.5, 0.1, -0.4;
  y << -0.1, 0.25, 0.2, -0.3, 0.35;
  const double u = (x + y).squaredNorm();
  const double a = -oprfRMinusOne(d, u) / 8;
  DerfParameters p;
  p.a = Eigen::VectorXd::Constant(d, a);
  p.t1 = p.t2 = Eigen::MatrixXd::Identity(d, d);
  EXPECT_NEAR(derfLogVariance(p, x, y), oprfLogVariance(d, (x - y).squaredNorm(), u), 1e-12);
  // Isotropic statistics (means 0, M1 = 0.16/d I, M2 = 0.09/d I): SDERF's ratios all equal
  // OPRF's r at u = mean|x + y|² = 0.25; ADERF balances the two sides, u = tr W = 2·0.4·0.3.
  std::vector<Eigen::VectorXd> xs, ys;
  for (int i = 0; i < d; ++i) {
    xs.push_back(0.4 * Eigen::VectorXd::Unit(d, i));
    xs.push_back(-0.4 * Eigen::VectorXd::Unit(d, i));
    ys.push_back(0.3 * Eigen::VectorXd::Unit(d, i));
    ys.push_back(-0.3 * Eigen::VectorXd::Unit(d, i));
  }
  const DerfMoments moments = derfMoments(xs, ys);
  const DerfChoice sderf = sderfParameters(moments);
  for (Eigen::Index l = 0; l < d; ++l)
    EXPECT_NEAR(sderf.parameters.a[l], -oprfRMinusOne(d, 0.25) / 8, 1e-12);
  const DerfChoice aderf = aderfParameters(moments);
  EXPECT_NEAR(aderf.traceW, 0.24, 1e-9);
  EXPECT_NEAR(aderf.parameters.a[0], -oprfRMinusOne(d, 0.24) / 8, 1e-9);
  // The transforms keep x̃ᵀỹ = xᵀy.
  EXPECT_NEAR(
      (aderf.parameters.t1.transpose() * aderf.parameters.t2 - Eigen::MatrixXd::Identity(d, d))
          .norm(),
      0.0, 1e-9);
}

TEST(DerfMonteCarlo, FeaturesAreUnbiasedWithTheClosedFormVariance) {
  // The data-driven SDERF, ADERF and dense ADERF of the d = 8 reference set: one-feature estimates
  // f⁽¹⁾(ω, x)f⁽²⁾(ω, y) over 40000 ω ~ N(0, I) (Philox) at five pairs; the mean within the 99.9%
  // interval of K, the sample variance within the 99.9% interval of the closed form (the optima
  // have a_l ≤ 0: bounded features, every moment finite).
  constexpr int kDraws = 40000;
  constexpr double kZ = 3.29;
  const nlohmann::json* set = nullptr;
  for (const auto& s : derfReferences().at("data_driven"))
    if (s.at("label").get<std::string>().rfind("d=8", 0) == 0) set = &s;
  ASSERT_NE(set, nullptr);
  const std::vector<Eigen::VectorXd> xs = referenceRows(set->at("xs")),
                                     ys = referenceRows(set->at("ys"));
  const int d = static_cast<int>(xs.front().size());
  TrialStream rng(2024, 0);
  const Eigen::MatrixXd omega = normalFrequencies(rng, kDraws, d);
  const DerfMoments moments = derfMoments(xs, ys);
  for (const DerfChoice& choice :
       {sderfParameters(moments), aderfParameters(moments), aderfParameters(moments, true)}) {
    for (std::size_t i = 0; i < 5; ++i) {
      const DerfSampleMoments sample = derfSampleMoments(choice.parameters, omega, xs[i], ys[i]);
      const double kernel = std::exp(-0.5 * (xs[i] - ys[i]).squaredNorm());
      const double exact = std::exp(derfLogVariance(choice.parameters, xs[i], ys[i]));
      EXPECT_NEAR(sample.mean, kernel, kZ * std::sqrt(exact / kDraws)) << "pair " << i;
      EXPECT_NEAR(sample.variance, exact, kZ * sample.varianceError) << "pair " << i;
    }
  }
}

// The registered mechanisms sderf and aderf, their matrices chosen from the sets' statistics (as
// variance-vs-sigma, attention and classification choose them): every pair's closed form equals
// the mpmath reference; the objective they report too. And the statistics of the sets scaled by σ
// give the matrices of the scaled sets.
TEST(DerfReference, RegisteredMechanismsWithSetStatisticsMatchMpmath) {
  int compared = 0;
  for (const auto& set : derfReferences().at("data_driven")) {
    const std::string label = set.at("label");
    const std::vector<Eigen::VectorXd> xs = referenceRows(set.at("xs")),
                                       ys = referenceRows(set.at("ys"));
    for (const char* id : {"sderf", "aderf"}) {
      const Mechanism* mechanism = findMechanism(id);
      ASSERT_NE(mechanism, nullptr) << id;
      const auto& expected = set.at("variants").at(id);
      EstimatorSpec spec;
      spec.mechanism = mechanism;
      spec.parameters = dataDrivenParameters(*mechanism, xs, ys);
      const double objective = referenceNumber(expected.at("objective"));
      EXPECT_NEAR(spec.parameters.real("objective"), objective, 1e-9 * std::max(1.0, objective))
          << label << " " << id;
      const Eigen::VectorXd expectedLog = referenceVector(expected.at("log_variance"));
      for (std::size_t i = 0; i < xs.size(); ++i) {
        const AnalyticAnswer answer = evaluateAnalytic(spec, xs[i], ys[i]);
        ASSERT_TRUE(answer.variance) << answer.variance.reason();
        EXPECT_NEAR(answer.variance->logVariance, expectedLog[static_cast<Eigen::Index>(i)], 1e-9)
            << label << " " << id << " pair " << i;
        ++compared;
      }
      // Scaled statistics: the sets at σ = 0.5, directly and from the σ = 1 statistics.
      std::vector<Eigen::VectorXd> halfX, halfY;
      for (const auto& x : xs)
        halfX.push_back(0.5 * x);
      for (const auto& y : ys)
        halfY.push_back(0.5 * y);
      const ParameterSet direct = dataDrivenParameters(*mechanism, halfX, halfY);
      const ParameterSet scaled =
          dataDrivenParameters({mechanism}, ScalableStatistics(xs, ys, true), 0.5).front();
      EXPECT_NEAR(scaled.real("objective"), direct.real("objective"),
                  1e-10 * std::max(1.0, direct.real("objective")))
          << label << " " << id;
      spec.parameters = scaled;
      const AnalyticAnswer fromScaled = evaluateAnalytic(spec, halfX[0], halfY[0]);
      spec.parameters = direct;
      const AnalyticAnswer fromDirect = evaluateAnalytic(spec, halfX[0], halfY[0]);
      ASSERT_TRUE(fromScaled.variance && fromDirect.variance);
      EXPECT_NEAR(fromScaled.variance->logVariance, fromDirect.variance->logVariance, 1e-9)
          << label << " " << id;
    }
  }
  EXPECT_EQ(compared, 2 * (5 + 8 + 12 + 20 + 100 + 100));
}

// For isotropic statistics (Σ_p a multiple of I) every DERF is OPRF: SDERF's and ADERF's matrices
// give OPRF's variance with its data-driven A*.
TEST(DerfReference, IsotropicDataGivesOprf) {
  const int d = 4;
  std::vector<Eigen::VectorXd> xs, ys;
  for (int l = 0; l < d; ++l)
    for (const double sign : {1.0, -1.0}) {
      xs.push_back(0.6 * sign * Eigen::VectorXd::Unit(d, l));
      ys.push_back(0.6 * sign * Eigen::VectorXd::Unit(d, l));
    }
  const Mechanism* oprf = findMechanism("oprf");
  EstimatorSpec oprfSpec;
  oprfSpec.mechanism = oprf;
  oprfSpec.parameters = dataDrivenParameters(*oprf, xs, ys);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(d, 0.1, 0.4);
  const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(d, -0.2, 0.3);
  const double expected = evaluateAnalytic(oprfSpec, x, y).variance->logVariance;
  for (const char* id : {"sderf", "aderf"}) {
    EstimatorSpec spec;
    spec.mechanism = findMechanism(id);
    spec.parameters = dataDrivenParameters(*spec.mechanism, xs, ys);
    EXPECT_NEAR(evaluateAnalytic(spec, x, y).variance->logVariance, expected, 1e-9) << id;
  }
}

}  // namespace
}  // namespace rfscope
