#include "core/couplings/frequencies.h"

#include <cmath>
#include <vector>

#include <Eigen/QR>

#include "core/couplings/block_geometry.h"

namespace rfscope {
namespace {

// The simplex matrix S of SimRF eq. (9), corrected (math notes): unit rows, pairwise cosine
// -1/(d-1).
Eigen::MatrixXd simplexMatrix(int d) {
  Eigen::MatrixXd s = Eigen::MatrixXd::Identity(d, d);
  for (int i = 0; i < d; ++i)
    applySimplexRows(s.col(i).data(), d);  // S·e_i = column i
  return s;
}

// SimRF+ (SimRF eq. 17): each row in turn points away from the sum of the others, keeping its norm.
void simplexPlusPasses(Eigen::MatrixXd& omega, int passes) {
  Eigen::VectorXd total = omega.colwise().sum().transpose();
  for (int pass = 0; pass < passes; ++pass) {
    for (Eigen::Index i = 0; i < omega.rows(); ++i) {
      const Eigen::VectorXd row = omega.row(i).transpose();
      const Eigen::VectorXd others = total - row;
      const double othersNorm = others.norm();
      if (othersNorm == 0) continue;
      const Eigen::VectorXd updated = -(row.norm() / othersNorm) * others;
      omega.row(i) = updated.transpose();
      total += updated - row;
    }
  }
}

}  // namespace

Eigen::VectorXd gaussianVectorNorms(TrialStream& rng, int d) {
  Eigen::VectorXd norms(d);
  for (int i = 0; i < d; ++i) {
    double squares = 0;
    for (int j = 0; j < d; ++j) {
      const double g = rng.normal();
      squares += g * g;
    }
    norms[i] = std::sqrt(squares);
  }
  return norms;
}

void drawFullBlock(Coupling coupling, int d, int simplexPlusIterations, TrialStream& rng,
                   FrequencyScratch& s) {
  const auto gaussianMatrix = [&] {
    s.gaussian.resize(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j)
        s.gaussian(i, j) = rng.normal();
  };
  if (coupling == Coupling::Iid) {
    gaussianMatrix();
    s.omega = s.gaussian;
    return;
  }
  if (isStructured(coupling)) {  // M = H D₃ H D₂ H D₁ / d^{3/2}, column by column
    std::vector<double> signs(3 * static_cast<std::size_t>(d));
    randomSigns(rng, 3 * d, signs.data());
    s.rotation = Eigen::MatrixXd::Identity(d, d);
    for (int j = 0; j < d; ++j)
      structuredRotation(s.rotation.col(j).data(), d, signs.data());
  } else {
    // Haar rotation: Q of a Gaussian matrix with the signs of R's diagonal divided out.
    gaussianMatrix();
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(s.gaussian);
    s.rotation = qr.householderQ();
    for (int k = 0; k < d; ++k)
      if (qr.matrixQR()(k, k) < 0) s.rotation.col(k) *= -1;
  }
  const Eigen::VectorXd norms = gaussianVectorNorms(rng, d);
  if (isOrthogonalBlock(coupling)) {
    s.omega = norms.asDiagonal() * s.rotation;
    return;
  }
  s.omega = norms.asDiagonal() * (simplexMatrix(d) * s.rotation);
  if (coupling == Coupling::SimplexPlus) simplexPlusPasses(s.omega, simplexPlusIterations);
}

void frequencies(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                 FrequencyScratch& scratch, Eigen::MatrixXd& omega, int simplexPlusIterations) {
  omega.resize(count, frequencyDimension(coupling, d));
  Eigen::Index row = 0;
  forEachFrequency(coupling, d, count, simplexPlusIterations, rng, scratch,
                   [&](const auto& w) { omega.row(row++) = w.transpose(); });
}

Eigen::MatrixXd frequencies(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                            int simplexPlusIterations) {
  FrequencyScratch scratch;
  Eigen::MatrixXd omega;
  frequencies(coupling, d, count, rng, scratch, omega, simplexPlusIterations);
  return omega;
}

}  // namespace rfscope
