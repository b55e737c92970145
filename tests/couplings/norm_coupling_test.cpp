// orf-norm-coupled (norm_coupling.h): a Haar orthonormal frame per block, the χ_d norms of the
// pairs (1, 2), (3, 4), … antithetic (F(r₁) + F(r₂) = 1) from one uniform each, an odd d's last
// norm free; every norm still χ_d, so every ω still N(0, I).

#include "core/couplings/norm_coupling.h"

#include <gtest/gtest.h>

#include <cmath>

#include <boost/math/special_functions/gamma.hpp>

#include "core/couplings/frequencies.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

double chiCdf(int d, double r) {
  return boost::math::gamma_p(0.5 * d, 0.5 * r * r);
}

TEST(NormCoupling, AntitheticNormsAreQuantilesAtTAndOneMinusT) {
  for (const int d : {1, 2, 3, 8, 64, 1024})
    for (const double t : {1e-300, 1e-12, 0.01, 0.3, 0.5, 0.9}) {
      const AntitheticNorms r = antitheticChiNorms(d, t);
      EXPECT_NEAR(chiCdf(d, r.first), t, 1e-13 * std::max(t, 1e-3)) << d << " " << t;
      // The upper quantile from Q⁻¹: Q(r₂) = t to full relative precision even for tiny t.
      EXPECT_NEAR(boost::math::gamma_q(0.5 * d, 0.5 * r.second * r.second), t, 1e-12 * t)
          << d << " " << t;
    }
  const AntitheticNorms median = antitheticChiNorms(6, 0.5);
  EXPECT_NEAR(median.first, median.second, 1e-14);
}

TEST(NormCoupling, BlocksAreOrthogonalWithAntitheticPairs) {
  for (const int d : {4, 5}) {
    TrialStream rng(42, 3);
    const std::int64_t m = 2 * d + 3;  // two whole blocks and a cut one
    const Eigen::MatrixXd omega = frequencies(Coupling::OrthogonalNormCoupled, d, m, rng);
    for (std::int64_t start = 0; start < m; start += d) {
      const std::int64_t rows = std::min<std::int64_t>(d, m - start);
      const Eigen::MatrixXd block = omega.middleRows(start, rows);
      const Eigen::VectorXd norms = block.rowwise().norm();
      const Eigen::MatrixXd gram = block * block.transpose();
      for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index j = 0; j < rows; ++j) {
          if (i == j) continue;
          EXPECT_NEAR(gram(i, j), 0.0, 1e-12 * norms[i] * norms[j]);
        }
      for (Eigen::Index i = 0; i + 1 < rows; i += 2)
        EXPECT_NEAR(chiCdf(d, norms[i]) + chiCdf(d, norms[i + 1]), 1.0, 1e-12);
    }
  }
}

TEST(NormCoupling, DrawsOneUniformPerPairAfterTheRotation) {
  // d = 5: the rotation's 25 normals, then three uniforms (two pairs and the free norm).
  const int d = 5;
  TrialStream rng(7, 1), reference(7, 1);
  FrequencyScratch scratch;
  drawFullBlock(Coupling::OrthogonalNormCoupled, d, 0, rng, scratch);
  PairedNormals<TrialStream> normals(reference);
  for (int i = 0; i < d * d; ++i)
    normals.next();
  const Eigen::VectorXd norms = pairCoupledBlockNorms(reference, d);
  EXPECT_EQ(scratch.omega.rowwise().norm().eval().isApprox(norms, 1e-13), true);
  EXPECT_EQ(rng.bits(), reference.bits());
}

TEST(NormCoupling, EveryFrequencyStaysStandardNormal) {
  // Over draws, a coordinate of rows 0 (paired), 1 (its partner) and 4 (free, d = 5) has mean 0
  // and variance 1, and each squared norm mean d, within 99.9% intervals (the quantile test above
  // makes each norm exactly χ_d; this checks the assembly).
  const int d = 5, draws = 20000;
  const int rows[] = {0, 1, 4};
  double sum[3] = {}, squares[3] = {}, fourth[3] = {}, normSum[3] = {};
  for (int t = 0; t < draws; ++t) {
    TrialStream rng(2024, static_cast<std::uint64_t>(t));
    const Eigen::MatrixXd omega = frequencies(Coupling::OrthogonalNormCoupled, d, d, rng);
    for (int k = 0; k < 3; ++k) {
      const double w = omega(rows[k], 2);
      sum[k] += w, squares[k] += w * w, fourth[k] += w * w * w * w;
      normSum[k] += omega.row(rows[k]).squaredNorm();
    }
  }
  for (int k = 0; k < 3; ++k) {
    const double mean = sum[k] / draws, second = squares[k] / draws;
    EXPECT_LE(std::abs(mean), test::kZ999 * std::sqrt(1.0 / draws)) << rows[k];
    EXPECT_LE(std::abs(second - 1), test::kZ999 * std::sqrt((fourth[k] / draws - 1) / draws))
        << rows[k];
    // r² ~ χ²_d: mean d, variance 2d.
    EXPECT_LE(std::abs(normSum[k] / draws - d), test::kZ999 * std::sqrt(2.0 * d / draws))
        << rows[k];
  }
}

}  // namespace
}  // namespace rfscope
