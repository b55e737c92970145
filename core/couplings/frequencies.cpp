#include "core/couplings/frequencies.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <boost/math/special_functions/erf.hpp>
#include <boost/random/sobol.hpp>

#include "core/couplings/block_geometry.h"
#include "core/couplings/norm_coupling.h"
#include "core/math/contract.h"
#include "core/params/invalid_parameter.h"

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

// The first `count` primes (Halton bases).
std::vector<int> firstPrimes(int count) {
  std::vector<int> primes;
  for (int candidate = 2; static_cast<int>(primes.size()) < count; ++candidate) {
    bool prime = true;
    for (int p : primes) {
      if (p * p > candidate) break;
      if (candidate % p == 0) {
        prime = false;
        break;
      }
    }
    if (prime) primes.push_back(candidate);
  }
  return primes;
}

// The radical inverse of `index` in `base`: its digits mirrored behind the point.
double radicalInverse(std::uint64_t index, int base) {
  const double inverseBase = 1.0 / base;
  double value = 0, weight = inverseBase;
  while (index > 0) {
    value += static_cast<double>(index % static_cast<std::uint64_t>(base)) * weight;
    index /= static_cast<std::uint64_t>(base);
    weight *= inverseBase;
  }
  return value;
}

void computeBasePoints(Coupling coupling, int d, std::int64_t count, FrequencyScratch& s) {
  if (usesSobolPoints(coupling)) {
    boost::random::sobol_engine<std::uint64_t, 64> sobol(static_cast<std::size_t>(d));
    // Point 0 is the origin, which Boost's engine skips: with it the first 2^k points form a
    // (t, k, d)-net (one point in each dyadic interval of length 2^-k of every coordinate).
    s.sobolPoints.assign(static_cast<std::size_t>(count) * static_cast<std::size_t>(d), 0);
    for (std::size_t i = static_cast<std::size_t>(d); i < s.sobolPoints.size(); ++i)
      s.sobolPoints[i] = sobol();
  } else {
    const std::vector<int> bases = firstPrimes(d);
    s.haltonPoints.resize(count, d);
    for (std::int64_t j = 0; j < count; ++j)
      for (int i = 0; i < d; ++i)
        s.haltonPoints(j, i) = radicalInverse(static_cast<std::uint64_t>(j), bases[i]);
  }
  s.qmcCoupling = coupling;
  s.qmcDimension = d;
  s.qmcCount = count;
}

// Φ⁻¹(u) for u in (0, 1).
double standardNormalQuantile(double u) {
  return -std::numbers::sqrt2 * boost::math::erfc_inv(2.0 * u);
}

}  // namespace

void drawQuasiMonteCarlo(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                         FrequencyScratch& s) {
  assert(isQuasiMonteCarlo(coupling));
  if (d > maxCouplingDimension(coupling))
    throw InvalidParameter("coupling", couplingId(coupling) + " supports dimensions up to " +
                                           std::to_string(maxCouplingDimension(coupling)));
  if (s.qmcCoupling != coupling || s.qmcDimension != d || s.qmcCount != count)
    computeBasePoints(coupling, d, count, s);
  s.omega.resize(count, d);
  constexpr double kHalfUlp = 0x1p-54;  // the smallest u used: Φ⁻¹ stays finite
  for (int i = 0; i < d; ++i) {
    if (usesSobolPoints(coupling)) {
      // The top 53 bits of the randomised fraction, at the middle of their cell: u ∈ (0, 1).
      const bool owen = coupling == Coupling::QmcSobolOwen;
      std::uint64_t shift = 0;
      if (owen)
        s.owen.draw(rng, count);
      else
        shift = rng.bits();
      for (std::int64_t j = 0; j < count; ++j) {
        const std::uint64_t point =
            s.sobolPoints[static_cast<std::size_t>(j) * static_cast<std::size_t>(d) +
                          static_cast<std::size_t>(i)];
        const std::uint64_t bits = owen ? s.owen.apply(point) : point ^ shift;
        const double u = static_cast<double>(bits >> 11) * 0x1p-53 + kHalfUlp;
        s.omega(j, i) = standardNormalQuantile(u);
      }
    } else {
      const double shift = rng.uniform();
      for (std::int64_t j = 0; j < count; ++j) {
        double u = s.haltonPoints(j, i) + shift;
        if (u >= 1.0) u -= 1.0;
        s.omega(j, i) = standardNormalQuantile(std::max(u, kHalfUlp));
      }
    }
  }
}

Eigen::VectorXd gaussianVectorNorms(TrialStream& rng, int d) {
  PairedNormals<TrialStream> normals(rng);
  Eigen::VectorXd norms(d);
  for (int i = 0; i < d; ++i) {
    double squares = 0;
    for (int j = 0; j < d; ++j) {
      const double g = normals.next();
      squares += g * g;
    }
    norms[i] = std::sqrt(squares);
  }
  return norms;
}

void drawFullBlock(Coupling coupling, int d, int simplexPlusIterations, TrialStream& rng,
                   FrequencyScratch& s) {
  if (const std::string problem = couplingDimensionProblem(coupling, d); !problem.empty())
    throw InvalidParameter("coupling", problem);
  const auto gaussianMatrix = [&] {
    PairedNormals<TrialStream> normals(rng);
    s.gaussian.resize(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j)
        s.gaussian(i, j) = normals.next();
  };
  if (coupling == Coupling::Iid) {
    gaussianMatrix();
    s.omega = s.gaussian;
    return;
  }
  if (isQuasiMonteCarlo(coupling)) {  // a block is the first d points
    drawQuasiMonteCarlo(coupling, d, d, rng, s);
    return;
  }
  if (isStructured(coupling)) {  // M = H D₃ H D₂ H D₁ / d^{3/2}, column by column
    // The transform works on power-of-two lengths only (and would write past a shorter column).
    RFSCOPE_EXPECTS(frequencyDimension(coupling, d) == d,
                    "a structured block needs a power-of-two dimension (pad it: "
                    "frequencyDimension)");
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
  if (hasFixedNorms(coupling)) {  // no norms drawn: every row of R scaled by √d
    s.omega = std::sqrt(static_cast<double>(d)) * s.rotation;
    return;
  }
  const Eigen::VectorXd norms = coupling == Coupling::OrthogonalNormCoupled
                                    ? pairCoupledBlockNorms(rng, d)
                                    : gaussianVectorNorms(rng, d);
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
