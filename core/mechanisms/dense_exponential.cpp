#include "core/mechanisms/dense_exponential.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/math/log_math.h"
#include "core/mechanisms/oprf.h"

namespace rfscope {
namespace {

Eigen::VectorXd ratios(const DerfParameters& p) {
  return (1.0 - 8.0 * p.a.array()).matrix();
}

double prefactorSum(const Eigen::VectorXd& r) {
  double sum = 0;
  for (Eigen::Index l = 0; l < r.size(); ++l)
    sum += derfPrefactorTerm(r[l]);
  return sum;
}

// a_l = -(r_l - 1)/8 and the objective Σ [ℓ(r_l) + λ_l/r_l] for OPRF's d = 1 root at each λ_l.
double perCoordinateOptimum(const Eigen::VectorXd& lambda, Eigen::VectorXd& a) {
  a.resize(lambda.size());
  double objective = 0;
  for (Eigen::Index l = 0; l < lambda.size(); ++l) {
    const double u = std::max(lambda[l], 0.0);
    const double rMinusOne = oprfRMinusOne(1, u);
    a[l] = -rMinusOne / 8;
    objective += derfPrefactorTerm(1 + rMinusOne) + u / (1 + rMinusOne);
  }
  return objective;
}

Eigen::MatrixXd symmetrised(const Eigen::MatrixXd& m) {
  return 0.5 * (m + m.transpose());
}

}  // namespace

double derfPrefactorTerm(double r) {
  const double root = std::sqrt(r);
  const double rMinusOne = r - 1;
  return std::log1p(rMinusOne * rMinusOne / (2 * root * (1 + root) * (1 + root)));
}

double derfLogSecondMomentRatio(const DerfParameters& p, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y) {
  const Eigen::VectorXd r = ratios(p);
  const Eigen::VectorXd q = p.t1 * x + p.t2 * y;
  return prefactorSum(r) + (q.array().square() / r.array()).sum();
}

double derfLogVariance(const DerfParameters& p, const Eigen::VectorXd& x,
                       const Eigen::VectorXd& y) {
  const double g = derfLogSecondMomentRatio(p, x, y);
  if (!(g > 0)) return kNegativeInfinity;
  return -(x - y).squaredNorm() + logExpm1(g);
}

DerfCovariance derfCovariance(const DerfParameters& p, const Eigen::VectorXd& x1,
                              const Eigen::VectorXd& y1, const Eigen::VectorXd& x2,
                              const Eigen::VectorXd& y2) {
  const Eigen::ArrayXd r = ratios(p).array();
  const Eigen::ArrayXd q1 = (p.t1 * x1 + p.t2 * y1).array();
  const Eigen::ArrayXd q2 = (p.t1 * x2 + p.t2 * y2).array();
  const double phi =
      prefactorSum(r.matrix()) + (((q1 + q2).square() - r * (q1 - q2).square()) / (4 * r)).sum();
  DerfCovariance c;
  c.sign = (phi > 0) - (phi < 0);
  if (c.sign == 0) {
    c.logAbs = kNegativeInfinity;
    return c;
  }
  // log|expm1(φ)|: logExpm1 for φ > 0, log(-expm1(φ)) for φ < 0.
  const double logExcess = phi > 0 ? logExpm1(phi) : std::log(-std::expm1(phi));
  c.logAbs = -0.5 * (x1 - y1).squaredNorm() - 0.5 * (x2 - y2).squaredNorm() + logExcess;
  return c;
}

Eigen::MatrixXd derfLogFeatures(const DerfParameters& p, const Eigen::MatrixXd& omega,
                                const Eigen::MatrixXd& x, bool first) {
  const Eigen::MatrixXd transformed = x * (first ? p.t1 : p.t2).transpose();  // rows x̃_i
  const Eigen::ArrayXd b = (1.0 - 4.0 * p.a.array()).sqrt();
  const double logD = 0.25 * (-4.0 * p.a.array()).log1p().sum();
  // log D + Σ a_l ω_l² per frequency, Σ b_l ω_l x̃_l per (point, frequency).
  const Eigen::RowVectorXd quadratic = (omega.array().square().matrix() * p.a).transpose();
  Eigen::MatrixXd out = transformed * b.matrix().asDiagonal() * omega.transpose();
  const Eigen::VectorXd rowConstant =
      -0.5 * (x.rowwise().squaredNorm() + transformed.rowwise().squaredNorm());
  out.rowwise() += quadratic;
  out.colwise() += rowConstant;
  return (out.array() + logD).matrix();
}

DerfParameters derfFromMatrices(const Eigen::MatrixXd& a, const Eigen::MatrixXd& q) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(symmetrised(a));
  const Eigen::MatrixXd ut = eigen.eigenvectors().transpose();
  DerfParameters p;
  p.a = eigen.eigenvalues();
  p.t1 = ut * q;
  p.t2 = ut * q.inverse().transpose();
  return p;
}

DerfParameters paddedDerfParameters(const DerfParameters& p, Eigen::Index n) {
  const Eigen::Index d = p.a.size();
  if (n <= d) return p;
  DerfParameters out;
  out.a = Eigen::VectorXd::Zero(n);
  out.a.head(d) = p.a;
  out.t1 = out.t2 = Eigen::MatrixXd::Identity(n, n);
  out.t1.topLeftCorner(d, d) = p.t1;
  out.t2.topLeftCorner(d, d) = p.t2;
  return out;
}

DerfMoments derfMoments(const std::vector<Eigen::VectorXd>& xs,
                        const std::vector<Eigen::VectorXd>& ys) {
  const Eigen::Index d = xs.empty() ? 0 : xs.front().size();
  DerfMoments m;
  m.m1 = m.m2 = Eigen::MatrixXd::Zero(d, d);
  m.mean1 = m.mean2 = Eigen::VectorXd::Zero(d);
  for (const auto& x : xs) {
    m.m1.noalias() += x * x.transpose();
    m.mean1 += x;
  }
  for (const auto& y : ys) {
    m.m2.noalias() += y * y.transpose();
    m.mean2 += y;
  }
  if (!xs.empty())
    m.m1 /= static_cast<double>(xs.size()), m.mean1 /= static_cast<double>(xs.size());
  if (!ys.empty())
    m.m2 /= static_cast<double>(ys.size()), m.mean2 /= static_cast<double>(ys.size());
  return m;
}

DerfMoments scaledMoments(const DerfMoments& moments, double sigma) {
  DerfMoments m = moments;
  m.m1 *= sigma * sigma;
  m.m2 *= sigma * sigma;
  m.mean1 *= sigma;
  m.mean2 *= sigma;
  return m;
}

DerfChoice sderfParameters(const DerfMoments& m) {
  const Eigen::MatrixXd sumMoment =
      m.m1 + m.m2 + m.mean1 * m.mean2.transpose() + m.mean2 * m.mean1.transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(symmetrised(sumMoment));
  DerfChoice choice;
  choice.objective = perCoordinateOptimum(eigen.eigenvalues(), choice.parameters.a);
  choice.parameters.t1 = eigen.eigenvectors().transpose();
  choice.parameters.t2 = choice.parameters.t1;
  return choice;
}

DerfChoice aderfParameters(const DerfMoments& m, bool denseA) {
  const Eigen::Index d = m.m1.rows();
  const double ridge = kAderfRidge * (m.m1.trace() + m.m2.trace()) / (2.0 * static_cast<double>(d));
  DerfChoice choice;
  if (!(ridge > 0)) {  // every input is zero: every DERF is exact; OPRF at u = 0 (A = 0)
    choice.parameters.a = Eigen::VectorXd::Zero(d);
    choice.parameters.t1 = choice.parameters.t2 = Eigen::MatrixXd::Identity(d, d);
    return choice;
  }
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(d, d);
  // The geometric mean: M1' = Q₁Λ₁Q₁ᵀ, H = Λ₁^{1/2}Q₁ᵀM2'Q₁Λ₁^{1/2} = V diag(σ²) Vᵀ,
  // Q = diag(√σ) Vᵀ Λ₁^{-1/2} Q₁ᵀ and Q^{-T} = diag(1/√σ) Vᵀ Λ₁^{1/2} Q₁ᵀ (no inverse taken).
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> first(symmetrised(m.m1 + ridge * identity));
  const Eigen::VectorXd h = first.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  const Eigen::MatrixXd& q1 = first.eigenvectors();
  const Eigen::MatrixXd hMatrix =
      h.asDiagonal() * (q1.transpose() * (m.m2 + ridge * identity) * q1) * h.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> second(symmetrised(hMatrix));
  const Eigen::VectorXd sigma = second.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  const Eigen::VectorXd rootSigma = sigma.cwiseSqrt();
  const Eigen::MatrixXd vt = second.eigenvectors().transpose();
  Eigen::MatrixXd t1 = rootSigma.asDiagonal() * vt * h.cwiseInverse().asDiagonal() * q1.transpose();
  Eigen::MatrixXd t2 = rootSigma.cwiseInverse().asDiagonal() * vt * h.asDiagonal() * q1.transpose();
  // W = mean ppᵀ, p = T1x + T2y, from the un-ridged moments.
  const Eigen::VectorXd mean1 = t1 * m.mean1, mean2 = t2 * m.mean2;
  const Eigen::MatrixXd cross = mean1 * mean2.transpose();
  const Eigen::MatrixXd w = symmetrised(t1 * m.m1 * t1.transpose() + t2 * m.m2 * t2.transpose() +
                                        cross + cross.transpose());
  if (!denseA) {
    const double u = std::max(w.trace(), 0.0);
    const double rMinusOne = oprfRMinusOne(static_cast<int>(d), u);
    choice.parameters.a = Eigen::VectorXd::Constant(d, -rMinusOne / 8);
    choice.objective =
        static_cast<double>(d) * derfPrefactorTerm(1 + rMinusOne) + u / (1 + rMinusOne);
    choice.traceW = u;
  } else {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(w);
    choice.objective = perCoordinateOptimum(eigen.eigenvalues(), choice.parameters.a);
    const Eigen::MatrixXd ut = eigen.eigenvectors().transpose();
    t1 = ut * t1;
    t2 = ut * t2;
    choice.traceW = w.trace();
  }
  choice.parameters.t1 = std::move(t1);
  choice.parameters.t2 = std::move(t2);
  return choice;
}

DerfChoice saderfParameters(const Eigen::VectorXd& meanSquares1,
                            const Eigen::VectorXd& meanSquares2, const Eigen::VectorXd& mean1,
                            const Eigen::VectorXd& mean2) {
  const Eigen::Index d = meanSquares1.size();
  const double ridge =
      kAderfRidge * (meanSquares1.sum() + meanSquares2.sum()) / (2.0 * static_cast<double>(d));
  DerfChoice choice;
  Eigen::VectorXd psi = Eigen::VectorXd::Ones(d);
  if (ridge > 0)  // else every input is zero: Ψ = I, OPRF at u = 0 (A = 0)
    psi = ((meanSquares2.array() + ridge) / (meanSquares1.array() + ridge)).sqrt().sqrt().matrix();
  const Eigen::ArrayXd psiSquared = psi.array().square();
  const double u =
      std::max((psiSquared * meanSquares1.array() + meanSquares2.array() / psiSquared).sum() +
                   2 * mean1.dot(mean2),
               0.0);
  const double rMinusOne = oprfRMinusOne(static_cast<int>(d), u);
  choice.parameters.a = Eigen::VectorXd::Constant(d, -rMinusOne / 8);
  choice.parameters.t1 = psi.asDiagonal();
  choice.parameters.t2 = psi.cwiseInverse().asDiagonal();
  choice.objective =
      static_cast<double>(d) * derfPrefactorTerm(1 + rMinusOne) + u / (1 + rMinusOne);
  choice.traceW = u;
  return choice;
}

DerfChoice saderfParameters(const DerfMoments& m) {
  return saderfParameters(m.m1.diagonal(), m.m2.diagonal(), m.mean1, m.mean2);
}

}  // namespace rfscope
