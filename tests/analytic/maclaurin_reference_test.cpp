// Random Maclaurin features (maclaurin) against the committed mpmath references
// (tests/reference/maclaurin_references.json, 40 digits, from the series summed term by term): the
// Gaussian-kernel log-variance of one feature for the Poisson law at λ*, 0.5 and 3 and for the
// geometric law at 34 pairs (d = 1 … 64, log-variances up to +127 and, for poor λ, +53309); the
// data-driven λ of three sets; a Monte Carlo of the feature products against the closed form (mean
// and variance inside their 99.9% intervals, fixed seeds); and the feature map reproducing the
// trial of the same stream.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/maclaurin.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/trial_kernel.h"
#include "core/random/trial_stream.h"
#include "tests/analytic/derf_test_support.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

const nlohmann::json& maclaurinReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/maclaurin_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

const Mechanism& maclaurin() {
  const Mechanism* mechanism = findMechanism("maclaurin");
  EXPECT_NE(mechanism, nullptr);
  return *mechanism;
}

Eigen::VectorXd plainVector(const nlohmann::json& values) {
  return vectorFromJson(values);
}

// The four laws of the references, as parameters.
struct Law {
  const char* key;
  ParameterSet params;
};
std::vector<Law> laws() {
  std::vector<Law> out(4);
  out[0].key = "poisson_optimal";
  out[1].key = "poisson_0.5";
  out[1].params.set("lambda", 0.5);
  out[2].key = "poisson_3";
  out[2].params.set("lambda", 3.0);
  out[3].key = "geometric";
  out[3].params.set("degrees", std::string("geometric"));
  return out;
}

TEST(MaclaurinReference, LogVariancesMatchMpmath) {
  const auto& pairs = maclaurinReferences().at("pairs");
  ASSERT_GE(pairs.size(), 30u);
  double worst = 0;
  std::string worstAt;
  for (const auto& entry : pairs) {
    const std::string label = entry.at("label");
    const Eigen::VectorXd x = plainVector(entry.at("x")), y = plainVector(entry.at("y"));
    const MaclaurinPair moments = maclaurinPair(x, y);
    const double c = referenceValue(entry.at("c"));
    EXPECT_LE(std::abs(moments.moment - c), 1e-14 * std::max(1.0, c)) << label;
    for (const Law& law : laws()) {
      const VarianceResult result = maclaurin().logVariance(PairInput(x, y), law.params);
      ASSERT_TRUE(result.logVariance) << label << " " << law.key;
      const double got = *result.logVariance;
      if (entry.at(law.key).is_null()) {  // zero variance
        EXPECT_EQ(got, -std::numeric_limits<double>::infinity()) << label << " " << law.key;
        continue;
      }
      const double expected = referenceValue(entry.at(law.key));
      const double error = std::abs(got - expected) / std::max(1.0, std::abs(expected));
      if (error > worst) {
        worst = error;
        worstAt = label + " " + law.key;
      }
      EXPECT_LE(error, 1e-13) << label << " " << law.key << ": " << got << " vs " << expected;
    }
  }
  std::printf("maclaurin: worst relative error of log Var %.2e (%s)\n", worst, worstAt.c_str());
}

TEST(MaclaurinReference, OptimalLawBeatsEveryOther) {
  // λ* = √c minimises the variance over all degree laws (Cauchy–Schwarz): below λ = 0.5, 3 and
  // the geometric law at every pair.
  for (const auto& entry : maclaurinReferences().at("pairs")) {
    if (entry.at("poisson_optimal").is_null()) continue;
    const double best = referenceValue(entry.at("poisson_optimal"));
    for (const char* key : {"poisson_0.5", "poisson_3", "geometric"})
      EXPECT_LE(best, referenceValue(entry.at(key)) + 1e-12) << entry.at("label") << " " << key;
  }
}

TEST(MaclaurinReference, DataDrivenLambdaMatchesMpmath) {
  for (const auto& set : maclaurinReferences().at("sets")) {
    std::vector<Eigen::VectorXd> xs, ys;
    for (const auto& x : set.at("xs"))
      xs.push_back(plainVector(x));
    for (const auto& y : set.at("ys"))
      ys.push_back(plainVector(y));
    const ParameterSet chosen = dataDrivenParameters(maclaurin(), xs, ys);
    const double expected = referenceValue(set.at("lambda"));
    EXPECT_NEAR(chosen.real("lambda"), expected, 1e-14 * expected) << set.at("label");
  }
}

// Z = f(x) f(y) of single features drawn by the mechanism's trial, one stream per draw.
struct Sample {
  double mean = 0, variance = 0, varianceError = 0;
};
Sample sampleFeatureProducts(const TrialModel& model, int draws, std::uint64_t seed) {
  Eigen::ArrayXd z(draws);
  FrequencyScratch scratch;
  TrialInputs inputs;
  inputs.features = 1;
  inputs.scratch = &scratch;
  for (int t = 0; t < draws; ++t) {
    TrialStream rng(seed, static_cast<std::uint64_t>(t));
    EnvelopeSum total;
    model.kernel->addFeatureProducts(inputs, rng, total);
    const SignedLog value = total.result(model.logConstant);
    z[t] = value.sign == 0 ? 0.0 : value.sign * std::exp(value.logAbs);
  }
  Sample out;
  out.mean = z.mean();
  const Eigen::ArrayXd centred = z - out.mean;
  out.variance = centred.square().sum() / (draws - 1);
  out.varianceError = std::sqrt((centred.pow(4).mean() - out.variance * out.variance) / draws);
  return out;
}

// log E Z⁴ - 2 log E Z² of one feature product (the kernel's scale cancels): with
// m = E[(wᵀx)⁴(wᵀy)⁴] by enumerating all 2^d sign vectors, E Z⁴ = Σ_n m^n a_n⁴/p(n)³ —
// e^{3λ + m/λ³} (Poisson), 8 Σ_n (8m)^n/n!⁴ (geometric) — and E Z² = e^{λ + c/λ}, 2 I₀(2√(2c)).
// The sample variance of a law with E Z⁴/(E Z²)² near the number of draws has not converged: its
// standard error from the sample fourth moment would not hold (x = y at d = 16: about e^19).
double logKurtosisRatio(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const Law& law,
                        const ParameterSet& resolved) {
  const int d = static_cast<int>(x.size());
  long double m = 0;
  for (std::uint32_t bits = 0; bits < (1u << d); ++bits) {
    long double px = 0, py = 0;
    for (int l = 0; l < d; ++l) {
      const long double sign = ((bits >> l) & 1u) != 0 ? 1 : -1;
      px += sign * x[l];
      py += sign * y[l];
    }
    m += px * px * px * px * py * py * py * py;
  }
  m /= static_cast<long double>(1u << d);
  const double c = maclaurinPair(x, y).moment;
  if (law.params.contains("degrees")) {  // geometric
    double logSum = -std::numeric_limits<double>::infinity();
    for (int n = 0; n < 200; ++n) {
      const double term = n * std::log(8 * static_cast<double>(m)) - 4 * std::lgamma(n + 1.0);
      logSum = std::max(logSum, term) + std::log1p(std::exp(-std::abs(logSum - term)));
    }
    const double logSecond = std::log(2.0) + std::log(std::cyl_bessel_i(0.0, 2 * std::sqrt(2 * c)));
    return std::log(8.0) + logSum - 2 * logSecond;
  }
  const double lambda = resolved.real("lambda");
  return 3 * lambda + static_cast<double>(m) / (lambda * lambda * lambda) -
         2 * (lambda + c / lambda);
}

TEST(MaclaurinReference, MonteCarloOfTheFeaturesMatchesTheClosedForm) {
  constexpr int kDraws = 200000;
  constexpr double kZ = 3.29;  // two-sided 99.9%
  double worstZ = 0;
  int checked = 0;
  std::uint64_t seed = 11;
  for (const auto& entry : maclaurinReferences().at("pairs")) {
    const Eigen::VectorXd x = plainVector(entry.at("x")), y = plainVector(entry.at("y"));
    if (x.size() > 16 || referenceValue(entry.at("c")) > 10) continue;
    for (const Law& law : laws()) {
      if (entry.at(law.key).is_null()) continue;
      const VarianceResult exact = maclaurin().logVariance(PairInput(x, y), law.params);
      // The mean is checked where log(Var/K²) ≤ 4; the variance where E Z⁴/(E Z²)² ≤ draws/1000
      // and the law is not two-point (y = 0: the sample variance has no spread to test).
      const double relative = *exact.logVariance + (x - y).squaredNorm();
      if (relative > 4) continue;
      const ParameterSet resolved = resolveParameters(maclaurin(), PairInput(x, y), law.params);
      const auto model = maclaurin().trialModel(Coupling::Iid, x, y, resolved);
      ASSERT_TRUE(model) << model.reason();
      const Sample sample = sampleFeatureProducts(*model, kDraws, seed++);
      const double kernel = std::exp(-0.5 * (x - y).squaredNorm());
      const double variance = std::exp(*exact.logVariance);
      const double meanZ = std::abs(sample.mean - kernel) / std::sqrt(variance / kDraws);
      const double varianceZ = std::abs(sample.variance - variance) / sample.varianceError;
      EXPECT_LE(meanZ, kZ) << entry.at("label") << " " << law.key;
      worstZ = std::max(worstZ, meanZ);
      ++checked;
      if (y.isZero() || logKurtosisRatio(x, y, law, resolved) > std::log(kDraws / 1000.0)) continue;
      EXPECT_LE(varianceZ, kZ) << entry.at("label") << " " << law.key << ": " << sample.variance
                               << " vs " << variance;
      worstZ = std::max(worstZ, varianceZ);
      ++checked;
    }
  }
  EXPECT_GE(checked, 40);
  std::printf("maclaurin Monte Carlo: max |z| %.2f over %d values\n", worstZ, checked);
}

TEST(MaclaurinReference, FeatureMapReproducesTheTrialOfItsStream) {
  const auto& entry = maclaurinReferences().at("pairs").at(20);  // a d = 16 pair
  const Eigen::VectorXd x = plainVector(entry.at("x")), y = plainVector(entry.at("y"));
  for (const Kernel kernel : {Kernel::Gaussian, Kernel::Softmax}) {
    for (const Law& law : laws()) {
      const ParameterSet resolved = resolveParameters(maclaurin(), PairInput(x, y), law.params);
      FeatureMapSpec spec;
      spec.kernel = kernel;
      spec.features = 64;
      spec.dimension = static_cast<int>(x.size());
      spec.parameters = resolved;
      TrialStream mapStream(5, 9), trialStream(5, 9);
      auto map = maclaurin().drawFeatureMap(spec, mapStream);
      ASSERT_TRUE(map) << map.reason();
      const Eigen::MatrixXd estimate =
          kernelEstimates((*map)->queries(x.transpose()), (*map)->keys(y.transpose()));
      const auto model = maclaurin().trialModel(Coupling::Iid, x, y, resolved);
      ASSERT_TRUE(model);
      FrequencyScratch scratch;
      TrialInputs inputs;
      inputs.features = spec.features;
      inputs.scratch = &scratch;
      EnvelopeSum total;
      model->kernel->addFeatureProducts(inputs, trialStream, total);
      const double scale =
          kernel == Kernel::Softmax ? 0.5 * (x.squaredNorm() + y.squaredNorm()) : 0;
      const SignedLog trial = total.result(model->logConstant + scale - std::log(64.0));
      EXPECT_NEAR(estimate(0, 0), trial.sign * std::exp(trial.logAbs),
                  1e-12 * std::exp(trial.logAbs))
          << law.key;
    }
  }
  // Coupled draws are refused, with the reason.
  FeatureMapSpec spec;
  spec.coupling = Coupling::Orthogonal;
  spec.dimension = 4;
  spec.parameters.set("lambda", 1.0);
  TrialStream stream(1, 1);
  const auto refused = maclaurin().drawFeatureMap(spec, stream);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.reason().find("Rademacher"), std::string::npos);
  EXPECT_FALSE(maclaurin().trialModel(Coupling::Orthogonal, Eigen::VectorXd::Ones(4),
                                      Eigen::VectorXd::Ones(4), spec.parameters));
}

}  // namespace
}  // namespace rfscope
