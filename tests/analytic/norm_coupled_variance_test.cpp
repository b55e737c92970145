// orf-norm-coupled closed forms (norm_coupled_variance.h): the pair deficit of PosRF and the pair
// covariance of TrigRF against mpmath (generate_norm_coupled_references.py), and the M-feature
// variances against Monte Carlo of the coupling's own draw (frequencies()), 99.9% intervals from
// the sample's fourth moment, fixed seeds.

#include "core/couplings/norm_coupled_variance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/couplings/frequencies.h"
#include "core/couplings/positive_conformity.h"
#include "core/couplings/trig_orthogonality.h"
#include "tests/analytic/reference_data.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

const nlohmann::json& references() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/norm_coupled_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

TEST(NormCoupledVariance, PositivePairMatchesMpmath) {
  const auto& cases = references().at("positive");
  ASSERT_GE(cases.size(), 15u);
  double worstDeficit = 0, worstLogMean = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double u = c.at("u").get<double>();
    const double deficit = referenceValue(c.at("deficit")), mean = referenceValue(c.at("mean"));
    const PairDeficit got = normCoupledPositivePair(d, u);
    const double relative = std::abs(got.deficit - deficit) / deficit;
    const double logError = std::abs(got.logMean - std::log(mean));
    EXPECT_LE(relative, 1e-10) << "d = " << d << ", u = " << u;
    EXPECT_LE(logError, 1e-10) << "d = " << d << ", u = " << u;
    worstDeficit = std::max(worstDeficit, relative);
    worstLogMean = std::max(worstLogMean, logError);
    // Coupling the norms of a pair lowers its covariance below ORF's: g = ρe^{-u} below ORF's
    // (compared as logs: at u = 300 both deficits round to 1).
    EXPECT_LT(std::log(mean), positiveConformity(Coupling::Orthogonal, d, u)->logConformity - u)
        << d << " " << u;
  }
  std::printf("  deficit max relative error %.2e, log mean max |Δ| %.2e\n", worstDeficit,
              worstLogMean);
}

TEST(NormCoupledVariance, TrigPairMatchesMpmath) {
  const auto& cases = references().at("trig");
  ASSERT_GE(cases.size(), 15u);
  double worst = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double diff = c.at("diff").get<double>();
    const double expected = referenceValue(c.at("covariance"));
    // The quadrature's tolerance is relative to the mean E cos ω₁ᵀz cos ω₂ᵀz = C + e^{-z²}.
    const double scale = std::max(std::abs(expected), std::abs(expected + std::exp(-diff)));
    const double error = std::abs(normCoupledTrigCovariance(d, diff) - expected) / scale;
    EXPECT_LE(error, 1e-10) << "d = " << d << ", z² = " << diff << ": "
                            << normCoupledTrigCovariance(d, diff) << " vs " << expected;
    worst = std::max(worst, error);
  }
  std::printf("  covariance max scaled error %.2e\n", worst);
}

struct Sample {
  double variance = 0, halfWidth = 0;
};

// The sample variance of `trials` estimates and the half-width of its 99.9% interval.
Sample sampleVariance(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double mean = 0;
  for (double v : values)
    mean += v;
  mean /= n;
  double m2 = 0, m4 = 0;
  for (double v : values) {
    const double c = (v - mean) * (v - mean);
    m2 += c;
    m4 += c * c;
  }
  m2 /= n;
  m4 /= n;
  return {m2 * n / (n - 1), test::kZ999 * std::sqrt((m4 - m2 * m2) / n)};
}

TEST(NormCoupledVariance, MonteCarloOfTheDrawMatchesTheClosedForms) {
  // d = 5 (two pairs and a free norm per block), M = 7 (a whole block and a cut one with one pair).
  const int d = 5, trials = 60000;
  const std::int64_t m = 7;
  Eigen::VectorXd x(d), y(d);
  x << 0.3, -0.2, 0.25, 0.1, -0.15;
  y << 0.2, 0.3, -0.1, 0.2, 0.05;
  const double u = (x + y).squaredNorm(), diff = (x - y).squaredNorm();
  const double scale = x.squaredNorm() + y.squaredNorm();
  std::vector<double> positive(trials), trig(trials);
  for (int t = 0; t < trials; ++t) {
    TrialStream rng(77, static_cast<std::uint64_t>(t));
    const Eigen::MatrixXd omega = frequencies(Coupling::OrthogonalNormCoupled, d, m, rng);
    positive[t] = ((omega * (x + y)).array() - scale).exp().mean();
    trig[t] = (omega * (x - y)).array().cos().mean();
  }
  const Sample pos = sampleVariance(positive), cos = sampleVariance(trig);
  const double posExact = std::exp(normCoupledPositiveLogVariance(d, m, diff, u));
  const double posOrf = std::exp(coupledPositiveLogVariance(Coupling::Orthogonal, d, m, diff, u));
  EXPECT_LE(std::abs(pos.variance - posExact), pos.halfWidth)
      << "pos: exact " << posExact << ", sample " << pos.variance << " ± " << pos.halfWidth
      << " (orf " << posOrf << ")";
  const double logOne = std::log(0.5) + 2 * std::log(-std::expm1(-diff));
  const double cosExact = std::exp(normCoupledTrigLogVariance(logOne, d, m, diff));
  EXPECT_LE(std::abs(cos.variance - cosExact), cos.halfWidth)
      << "trig: exact " << cosExact << ", sample " << cos.variance << " ± " << cos.halfWidth;
  // For TrigRF the interval also separates the coupling from ORF (PosRF's 1.5% gap needs more
  // trials than a unit test spends).
  const double cosOrf = std::exp(orthogonalTrigLogVariance(d, m, diff));
  EXPECT_LT(cos.halfWidth, 0.5 * (cosOrf - cosExact));
  std::printf(
      "  pos: %.6g (sample %.6g ± %.2g, orf %.6g); trig: %.6g (sample %.6g ± %.2g, orf %.6g)\n",
      posExact, pos.variance, pos.halfWidth, posOrf, cosExact, cos.variance, cos.halfWidth,
      std::exp(orthogonalTrigLogVariance(d, m, diff)));
}

TEST(NormCoupledVariance, PairCountsAndSmallArguments) {
  EXPECT_EQ(antitheticPairCount(7, 5), 2 * (2 + 1));
  EXPECT_EQ(antitheticPairCount(10, 4), 2 * (2 + 2 + 1));
  EXPECT_EQ(antitheticPairCount(3, 1), 0);
  // u → 0: the deficit is O(u²) and stays positive and accurate (no cancellation against 1).
  for (const int d : {2, 64}) {
    const double h = normCoupledPositivePair(d, 1e-6).deficit;
    EXPECT_GT(h, positiveConformity(Coupling::Orthogonal, d, 1e-6)->deficit);
    EXPECT_LT(h, 1e-12);
  }
  EXPECT_EQ(normCoupledPositivePair(4, 0).deficit, 0);
  EXPECT_TRUE(std::isnan(normCoupledPositivePair(4, 701).deficit));
  EXPECT_EQ(normCoupledTrigCovariance(4, 0), 0);
}

}  // namespace
}  // namespace rfscope
