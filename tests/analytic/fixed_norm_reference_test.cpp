// orf-fixed-norm's closed forms against the committed mpmath references
// (tests/reference/fixed_norm_references.json, 40 digits): the normalised Bessel function Ω_d for
// d = 1…1024 and r up to 10√d, TrigRF's mean, bias and M-feature variance, PosRF's likewise, and
// the same numbers through evaluateAnalytic (bias and MSE carried beside the variance).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/analytic/analytic_variance.h"
#include "core/couplings/fixed_norm_bessel.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

const nlohmann::json& fixedNormReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/fixed_norm_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

// |value - reference| within relative tolerance, or an absolute floor where the reference is 0.
double relativeError(double value, double reference, double floor) {
  return std::abs(value - reference) / std::max(std::abs(reference), floor);
}

TEST(FixedNormReference, NormalisedBesselMatchesMpmath) {
  const auto& cases = fixedNormReferences().at("omega");
  ASSERT_GE(cases.size(), 100u);
  double worst = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double r = c.at("r").get<double>();
    const double error = relativeError(normalisedBessel(d, r), referenceValue(c.at("omega")), 1e-4);
    EXPECT_LE(error, 1e-10) << "d = " << d << ", r = " << r;
    worst = std::max(worst, error);
  }
  std::printf("  Ω_d: max relative error %.2e over %zu cases\n", worst, cases.size());
}

TEST(FixedNormReference, TrigMeanBiasAndVarianceMatchMpmath) {
  const auto& cases = fixedNormReferences().at("trig");
  ASSERT_GE(cases.size(), 60u);
  double worstMean = 0, worstBias = 0, worstLog = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double diff = c.at("diff").get<double>();
    for (const auto& [m, value] : c.at("log_variance").items()) {
      const FixedNormTrigMoments moments = fixedNormTrigMoments(d, std::stoll(m), diff);
      const double mean = referenceValue(c.at("mean")), bias = referenceValue(c.at("bias"));
      worstMean = std::max(worstMean, relativeError(moments.mean, mean, 1e-4));
      worstBias = std::max(worstBias, relativeError(moments.bias, bias, 0));
      EXPECT_LE(relativeError(moments.mean, mean, 1e-4), 1e-10) << "d = " << d << ", z² = " << diff;
      EXPECT_LE(relativeError(moments.bias, bias, 0), 1e-8) << "d = " << d << ", z² = " << diff;
      const double expected = referenceValue(value);
      if (std::isinf(expected)) {
        EXPECT_EQ(moments.variance, 0.0) << "d = " << d;
        continue;
      }
      const double error = std::abs(std::log(moments.variance) - expected);
      EXPECT_LE(error, 1e-8) << "d = " << d << ", M = " << m << ", z² = " << diff;
      worstLog = std::max(worstLog, error);
    }
  }
  std::printf(
      "  trig: max relative error of the mean %.2e, of the bias %.2e; max |Δ log Var| %.2e\n",
      worstMean, worstBias, worstLog);
}

TEST(FixedNormReference, PositiveMeanBiasAndVarianceMatchMpmath) {
  const auto& cases = fixedNormReferences().at("positive");
  ASSERT_GE(cases.size(), 16u);
  double worst = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    for (const auto& [m, value] : c.at("log_variance").items()) {
      const FixedNormPositiveMoments moments =
          fixedNormPositiveMoments(d, std::stoll(m), c.at("norms").get<double>(),
                                   c.at("sum").get<double>(), c.at("diff").get<double>());
      const double bias = referenceValue(c.at("bias"));
      const std::vector<double> errors{
          std::abs(moments.logMean - referenceValue(c.at("log_mean"))),
          relativeError(moments.biasSign * std::exp(moments.logAbsBias), bias, 0),
          std::abs(moments.logVariance - referenceValue(value))};
      for (double error : errors) {
        EXPECT_LE(error, 1e-9) << "d = " << d << ", M = " << m << ", sum = " << c.at("sum");
        worst = std::max(worst, error);
      }
    }
  }
  std::printf("  pos: max error (log mean, relative bias, log Var) %.2e\n", worst);
}

TEST(FixedNormReference, AnalyticAnswerCarriesTheBiasBesideTheVariance) {
  const auto& c = fixedNormReferences().at("trig")[static_cast<std::size_t>(4 * 8 + 5)];
  const int d = c.at("d").get<int>();
  const double diff = c.at("diff").get<double>();
  ASSERT_EQ(d, 8);
  EstimatorSpec spec;
  spec.mechanism = findMechanism("trig");
  spec.coupling = Coupling::OrthogonalFixedNorm;
  spec.features = 2 * d + 1;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(d), y = Eigen::VectorXd::Zero(d);
  x[0] = std::sqrt(diff);
  const AnalyticAnswer answer = evaluateAnalytic(spec, x, y);
  ASSERT_TRUE(answer.variance) << answer.variance.reason();
  const AnalyticVariance& v = *answer.variance;
  ASSERT_TRUE(v.logAbsBias);
  const double bias = referenceValue(c.at("bias"));
  EXPECT_NEAR(v.biasSign * std::exp(*v.logAbsBias), bias, 1e-12 * std::abs(bias));
  const double logVariance = referenceValue(c.at("log_variance").at(std::to_string(2 * d + 1)));
  EXPECT_NEAR(v.logVariance, logVariance, 1e-10);
  EXPECT_NEAR(v.logMeanSquaredError(), std::log(std::exp(logVariance) + bias * bias), 1e-10);
  // Unbiased couplings carry no bias.
  spec.coupling = Coupling::Orthogonal;
  EXPECT_FALSE(evaluateAnalytic(spec, x, y).variance->logAbsBias);
}

}  // namespace
}  // namespace rfscope
