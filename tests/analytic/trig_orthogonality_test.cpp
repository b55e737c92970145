// TrigRF under the orthogonal coupling (SimRF eq. 26): the covariance of two features of a block
// and the M-feature variance against mpmath (the printed series at up to 680 digits), the d → ∞
// ratio of Corollary 4.6, the sign of the gap, and a direct Monte Carlo of Haar-orthogonal blocks.

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/couplings/trig_orthogonality.h"
#include "core/random/philox_stream.h"
#include "tests/analytic/reference_data.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

TEST(TrigOrthogonality, CovarianceAndVarianceMatchMpmath) {
  const auto& cases = analyticReferences().at("trig_orthogonality");
  ASSERT_GE(cases.size(), 48u);
  double worstCovariance = 0, worstLog = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double diff = c.at("diff").get<double>();
    const double expected = referenceValue(c.at("covariance"));
    const double covariance = trigOrthogonalCovariance(d, diff);
    const double relative = std::abs(covariance - expected) / std::abs(expected);
    EXPECT_LE(relative, 1e-12) << "d = " << d << ", z² = " << diff << ": " << covariance << " vs "
                               << expected;
    worstCovariance = std::max(worstCovariance, relative);
    for (const auto& [m, value] : c.at("log_variance").items()) {
      const double got = orthogonalTrigLogVariance(d, std::stoll(m), diff);
      const double error = std::abs(got - referenceValue(value));
      EXPECT_LE(error, 1e-11) << "d = " << d << ", z² = " << diff << ", M = " << m;
      worstLog = std::max(worstLog, error);
    }
  }
  std::printf("  covariance max relative error %.2e, log variance max |Δ| %.2e\n", worstCovariance,
              worstLog);
}

// The simplex covariance at large d, where F(c) = ₁F₁(d; d/2; -c z²/2) is interpolated on
// [1 - 1/(d-1), 1 + 1/(d-1)] rather than evaluated at each quadrature point (references from the
// Taylor series, no quadrature: generate_simplex_covariance_references.py). The quadrature's
// tolerance is relative to the mean ½E[F(1 + s) + F(1 - s)] = C + e^{-z²}, so that is the scale.
TEST(TrigOrthogonality, SimplexCovarianceAtLargeDimensionsMatchesMpmath) {
  std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/simplex_covariance_references.json");
  const auto cases = nlohmann::json::parse(in).at("cases");
  ASSERT_GE(cases.size(), 30u);
  double worst = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double diff = c.at("diff").get<double>();
    const double expected = referenceValue(c.at("c_simrf"));
    const double scale = std::abs(expected) + std::exp(-diff);
    const double error = std::abs(trigSimplexCovariance(d, diff) - expected) / scale;
    EXPECT_LE(error, 1e-12) << "d = " << d << ", z² = " << diff << ": "
                            << trigSimplexCovariance(d, diff) << " vs " << expected;
    worst = std::max(worst, error);
  }
  std::printf("  simplex covariance, d = 128…1025: max error %.2e of C + e^{-z²}\n", worst);
}

TEST(TrigOrthogonality, ApproachesTheAsymptoticRatioOfCorollary46) {
  // MSE_ORF/MSE_IID = 1 - (m-1)(e^{-z²} z⁴/(d(1-e^{-z²})²) + O(1/d²)), i.e. the covariance is
  // C = -e^{-z²} z⁴/(2d) (1 + O(1/d)).
  for (const double z : {0.5, 1.0, 2.0}) {
    for (const int d : {256, 1024, 4096}) {
      const double leading = -std::exp(-z * z) * std::pow(z, 4) / (2.0 * d);
      EXPECT_NEAR(trigOrthogonalCovariance(d, z * z) / leading, 1.0, 3.0 / d)
          << "z = " << z << ", d = " << d;
    }
  }
}

TEST(TrigOrthogonality, GapSignAndSmallDistanceLimit) {
  // d = 2: C = e^{-x}(1 - x) - e^{-2x} < 0 for all x = z²/2 > 0 (1 - x < e^{-x}): ORF always wins.
  for (const double z : {0.1, 1.0, 2.0, 3.0, 5.0, 8.0})
    EXPECT_GT(trigOrthogonalityGap(2, 2, z * z), 0) << z;
  // d = 3, z = 5: ₁F₁(3; 3/2; -12.5) ≈ 4.9e-4 > e^{-25}: ORF is worse than IID.
  EXPECT_LT(trigOrthogonalityGap(3, 3, 25.0), 0);
  // Small z: C = -z⁴/(2(d+2)) (1 + O(z²)); no feature pair in a block of one.
  EXPECT_NEAR(trigOrthogonalCovariance(64, 1e-8) / (-1e-16 / 132), 1.0, 1e-7);
  EXPECT_EQ(trigOrthogonalityGap(64, 1, 0.5), 0.0);
  // The series below z² = 1 and ₁F₁ above it agree where they meet.
  for (const int d : {2, 3, 64, 1024})
    EXPECT_NEAR(
        trigOrthogonalCovariance(d, std::nextafter(1.0, 2.0)) / trigOrthogonalCovariance(d, 1.0),
        1.0, 1e-12)
        << d;
}

// Direct Monte Carlo: one block of d features, ω = (χ_d norms) × rows of a Haar rotation (QR of a
// Gaussian matrix with the signs of R's diagonal divided out), K̂ = mean cos(ωᵢᵀ(x - y)). The
// closed form must lie inside the 99.9% interval of the sample variance (standard error from the
// sample's fourth moment), and the IID variance outside it.
TEST(TrigOrthogonality, MonteCarloOfOrthogonalBlocks) {
  constexpr int kSamples = 200000;
  for (const auto& [d, z] : {std::pair{3, 1.5}, std::pair{8, 1.5}, std::pair{8, 2.5}}) {
    PhiloxStream rng(20240611, 100 + d);
    Eigen::VectorXd delta = Eigen::VectorXd::Zero(d);
    delta[0] = 0.6 * z;
    delta[d - 1] = 0.8 * z;
    std::vector<double> values(kSamples);
    Eigen::MatrixXd gaussian(d, d);
    double mean = 0;
    for (double& value : values) {
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
          gaussian(i, j) = rng.normal();
      const Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
      Eigen::MatrixXd rotation = qr.householderQ();
      for (int k = 0; k < d; ++k)
        if (qr.matrixQR()(k, k) < 0) rotation.col(k) *= -1;
      double sum = 0;
      for (int i = 0; i < d; ++i) {
        double squares = 0;
        for (int j = 0; j < d; ++j) {
          const double g = rng.normal();
          squares += g * g;
        }
        sum += std::cos(std::sqrt(squares) * rotation.row(i).dot(delta));
      }
      value = sum / d;
      mean += value;
    }
    mean /= kSamples;
    double m2 = 0, m4 = 0;
    for (const double value : values) {
      const double c = (value - mean) * (value - mean);
      m2 += c;
      m4 += c * c;
    }
    m2 /= kSamples;
    m4 /= kSamples;
    const double variance = m2 * kSamples / (kSamples - 1.0);
    const double halfWidth = test::kZ999 * std::sqrt((m4 - m2 * m2) / kSamples);
    const double exact = std::exp(orthogonalTrigLogVariance(d, d, z * z));
    const double iid = 0.5 * std::pow(std::expm1(-z * z), 2) / d;
    EXPECT_NEAR(variance, exact, halfWidth) << "d = " << d << ", z = " << z;
    EXPECT_GT(std::abs(variance - iid), halfWidth) << "d = " << d << ", z = " << z;
    EXPECT_NEAR(mean, std::exp(-0.5 * z * z), test::kZ999 * std::sqrt(variance / kSamples));
    std::printf("  d = %d, z = %.1f: ORF closed form %.6f, sample %.6f ± %.6f, IID %.6f\n", d, z,
                exact, variance, halfWidth, iid);
  }
}

}  // namespace
}  // namespace rfscope
