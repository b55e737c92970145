// Monte Carlo confirmation of the coupled PosRF MSE (RF-conformity closed forms): orthogonal blocks
// from the QR of a Gaussian matrix (Haar), simplex blocks from the corrected SimRF eq. (9) basis
// rotated by the same Haar rotation, χ_d norms, ⌈M/d⌉ independent blocks with the last one
// partial. 99.9% interval from the sample's own fourth moment, as in analytic_monte_carlo_test.

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>

#include "core/couplings/positive_conformity.h"
#include "core/random/philox_stream.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

Eigen::MatrixXd simplexBasis(int d) {
  // Rows s_i = √(d/(d-1)) e_i - (√d + 1)/(d-1)^{3/2} (1,…,1,0) for i < d, s_d = (1,…,1,0)/√(d-1).
  Eigen::MatrixXd s = Eigen::MatrixXd::Zero(d, d);
  Eigen::RowVectorXd ones = Eigen::RowVectorXd::Ones(d);
  ones[d - 1] = 0;
  const double dd = d;
  for (int i = 0; i < d - 1; ++i) {
    s.row(i) = -(std::sqrt(dd) + 1) / std::pow(dd - 1, 1.5) * ones;
    s(i, i) += std::sqrt(dd / (dd - 1));
  }
  s.row(d - 1) = ones / std::sqrt(dd - 1);
  return s;
}

Eigen::MatrixXd haarRotation(PhiloxStream& rng, int d) {
  Eigen::MatrixXd g(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      g(i, j) = rng.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd r = qr.matrixQR();
  for (int j = 0; j < d; ++j)
    if (r(j, j) < 0) q.col(j) = -q.col(j);
  return q;
}

TEST(CouplingMonteCarlo, SimplexBasisIsAUnitSimplex) {
  const int d = 6;
  const Eigen::MatrixXd s = simplexBasis(d);
  const Eigen::MatrixXd gram = s * s.transpose();
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      EXPECT_NEAR(gram(i, j), i == j ? 1.0 : -1.0 / (d - 1), 1e-14);
  EXPECT_NEAR(s.colwise().sum().norm(), 0.0, 1e-14);
}

TEST(CouplingMonteCarlo, CoupledPositiveVarianceMatchesSampling) {
  const int d = 4;
  PhiloxStream setup(11, 0);
  Eigen::VectorXd x(d), y(d);
  for (int l = 0; l < d; ++l) {
    x[l] = 0.3 * setup.normal();
    y[l] = 0.3 * setup.normal();
  }
  const double u = (x + y).squaredNorm(), diff = (x - y).squaredNorm();
  const double s = x.squaredNorm() + y.squaredNorm();
  const Eigen::MatrixXd simplex = simplexBasis(d);
  int stream = 100;
  for (const Coupling kind : {Coupling::Orthogonal, Coupling::Simplex}) {
    for (const int features : {4, 6}) {
      PhiloxStream rng(99, ++stream);
      const int trials = 200000;
      std::vector<double> values(trials);
      for (double& value : values) {
        double sum = 0;
        for (int first = 0; first < features; first += d) {
          const Eigen::MatrixXd rotation = haarRotation(rng, d);
          const Eigen::MatrixXd directions = kind == Coupling::Orthogonal
                                                 ? Eigen::MatrixXd(rotation.transpose())
                                                 : Eigen::MatrixXd(simplex * rotation.transpose());
          for (int i = 0; i < std::min(d, features - first); ++i) {
            Eigen::VectorXd g(d);  // its norm is χ_d, independent of the direction
            for (int l = 0; l < d; ++l)
              g[l] = rng.normal();
            const Eigen::VectorXd w = g.norm() * directions.row(i).transpose();
            sum += std::exp(w.dot(x + y) - s);
          }
        }
        value = sum / features;
      }
      double mean = 0;
      for (double v : values)
        mean += v;
      mean /= trials;
      double m2 = 0, m4 = 0;
      for (double v : values) {
        const double c = (v - mean) * (v - mean);
        m2 += c;
        m4 += c * c;
      }
      m2 /= trials;
      m4 /= trials;
      const double variance = m2 * trials / (trials - 1.0);
      const double halfWidth = test::kZ999 * std::sqrt((m4 - m2 * m2) / trials);
      const double exact = std::exp(coupledPositiveLogVariance(kind, d, features, diff, u));
      const double iid = std::exp(coupledPositiveLogVariance(Coupling::Iid, d, features, diff, u));
      EXPECT_LE(std::abs(variance - exact), halfWidth)
          << (kind == Coupling::Simplex ? "simrf" : "orf") << " M=" << features << ": exact "
          << exact << ", sample " << variance << " ± " << halfWidth << " (iid " << iid << ")";
      // The interval must separate the coupling from i.i.d., or the check would prove little.
      EXPECT_LT(halfWidth, 0.5 * (iid - exact));
    }
  }
}

}  // namespace
}  // namespace rfscope
