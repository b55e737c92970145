#include "core/mechanisms/feature_map.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/math/log_math.h"

namespace rfscope {
namespace {

// ln 2 split so that k·kLn2High is exact for |k| < 2^20 (Cody–Waite argument reduction).
constexpr double kLn2High = 0.693145751953125;
constexpr double kLn2Low = 1.42860682030941723212e-6;
// k·kLn2High is exact below this many steps of ln 2.
constexpr double kMaxCodyWaiteSteps = 1 << 20;
// exp(e) is a normal double for e in this range.
constexpr double kLowestExponent = -708.0, kHighestExponent = 709.0;

// The integer k with logScale = k·ln 2 exactly as RowStabiliser::logScale makes it, if any.
bool binaryExponent(double logScale, int* k) {
  const double ratio = std::nearbyint(logScale / kLn2);
  if (!(std::abs(ratio) < 1e6)) return false;
  *k = static_cast<int>(ratio);
  return *k * kLn2 == logScale;
}

// value · exp(first + second), exactly by a power of two where both scales are one.
double rescale(double value, double first, double second) {
  if (value == 0) return 0;
  int j = 0, k = 0;
  if (binaryExponent(first, &j) && binaryExponent(second, &k)) return std::ldexp(value, j + k);
  const double logScale = first + second;
  if (logScale < kHighestExponent) return value * std::exp(logScale);
  return std::copysign(std::exp(std::log(std::abs(value)) + logScale), value);
}

// Σ_k q_ik k_jk, as the product of the transposed feature matrices (one column per point).
Eigen::MatrixXd featureProducts(const FeatureMatrix& queries, const FeatureMatrix& keys) {
  const Eigen::MatrixXd q = queries.values.transpose(), k = keys.values.transpose();
  return q.transpose() * k;
}

}  // namespace

void FeatureMap::queries(const Eigen::Ref<const Eigen::MatrixXd>& x, FeatureMatrix& out) const {
  assert(x.cols() == dimension_);
  map(Side::Queries, x, out);
}

void FeatureMap::keys(const Eigen::Ref<const Eigen::MatrixXd>& y, FeatureMatrix& out) const {
  assert(y.cols() == dimension_);
  map(Side::Keys, y, out);
}

FeatureMatrix FeatureMap::queries(const Eigen::Ref<const Eigen::MatrixXd>& x) const {
  FeatureMatrix out;
  queries(x, out);
  return out;
}

FeatureMatrix FeatureMap::keys(const Eigen::Ref<const Eigen::MatrixXd>& y) const {
  FeatureMatrix out;
  keys(y, out);
  return out;
}

Eigen::MatrixXd kernelEstimates(const FeatureMatrix& queries, const FeatureMatrix& keys) {
  Eigen::MatrixXd estimates = featureProducts(queries, keys);
  for (Eigen::Index j = 0; j < estimates.cols(); ++j)
    for (Eigen::Index i = 0; i < estimates.rows(); ++i)
      estimates(i, j) = rescale(estimates(i, j), queries.logScale[i], keys.logScale[j]);
  return estimates;
}

Eigen::MatrixXd logKernelEstimates(const FeatureMatrix& queries, const FeatureMatrix& keys,
                                   Eigen::MatrixXi* signs) {
  Eigen::MatrixXd estimates = featureProducts(queries, keys);
  if (signs) signs->resize(estimates.rows(), estimates.cols());
  for (Eigen::Index j = 0; j < estimates.cols(); ++j)
    for (Eigen::Index i = 0; i < estimates.rows(); ++i) {
      const double value = estimates(i, j);
      if (signs) (*signs)(i, j) = (value > 0) - (value < 0);
      estimates(i, j) = std::log(std::abs(value)) + queries.logScale[i] + keys.logScale[j];
    }
  return estimates;
}

Eigen::VectorXd positiveShift(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              const Eigen::Ref<const Eigen::MatrixXd>& y, double epsilon) {
  assert(x.cols() == y.cols());
  Eigen::VectorXd shift(x.cols());
  for (Eigen::Index l = 0; l < x.cols(); ++l) {
    double low = std::numeric_limits<double>::infinity();
    if (x.rows() > 0) low = std::min(low, x.col(l).minCoeff());
    if (y.rows() > 0) low = std::min(low, y.col(l).minCoeff());
    shift[l] = low - epsilon;
  }
  return shift;
}

void projectOnFrequencies(const Eigen::MatrixXd& omega, const Eigen::Ref<const Eigen::MatrixXd>& x,
                          Projections& out) {
  out.transposedInput = x.transpose();
  const Eigen::Index d = x.cols();
  if (omega.cols() == d)
    out.onFrequencies.noalias() = omega * out.transposedInput;
  else
    out.onFrequencies.noalias() = omega.leftCols(d) * out.transposedInput;
  out.normSquared = out.transposedInput.colwise().squaredNorm();
}

void exponentiateColumns(Eigen::MatrixXd& exponents, Eigen::VectorXd& logScale) {
  const Eigen::Index columns = exponents.cols();
  logScale.resize(columns);
  Eigen::VectorXd factors = Eigen::VectorXd::Ones(columns);  // 2^{-k} where exact, else 1
  for (Eigen::Index i = 0; i < columns; ++i) {
    auto column = exponents.col(i);
    const double largest = column.size() > 0 ? column.maxCoeff() : kNegativeInfinity;
    const double steps = std::isfinite(largest) ? std::ceil(largest / kLn2) : 0.0;
    if (!(std::abs(steps) < kMaxCodyWaiteSteps)) {
      // Beyond Cody–Waite's exact range (|exponent| > 7e5): the row's largest exponent itself
      // is the scale (the exponents carry |e|·2^-53 of rounding from the inputs there anyway),
      // and an int k would overflow.
      logScale[i] = largest;
      column.array() -= largest;
      continue;
    }
    const int k = static_cast<int>(steps);
    logScale[i] = k * kLn2;
    const bool exact = column.size() > 0 && largest < kHighestExponent &&
                       column.minCoeff() > kLowestExponent && k > -1022 && k < 1022;
    if (exact)
      factors[i] = std::ldexp(1.0, -k);
    else if (k != 0)
      column.array() = (column.array() - k * kLn2High) - k * kLn2Low;
  }
  exponents = exponents.array().exp();
  for (Eigen::Index i = 0; i < columns; ++i)
    if (factors[i] != 1) exponents.col(i) *= factors[i];
}

double kernelRowLogScale(Kernel kernel, double normSquared) {
  return kernel == Kernel::Softmax ? 0.5 * normSquared : 0.0;
}

}  // namespace rfscope
