#include "core/mechanisms/feature_map.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

#include "core/math/log_math.h"
#include "core/mechanisms/feature_map_kernels.h"

namespace rfscope {
namespace {

// Per precision: ln 2 split so that k·ln2High is exact for |k| < maxSteps (Cody–Waite argument
// reduction); exp(e) is a normal number for e in (lowest, highest), 2^-k for |k| < maxPower.
template <class T>
struct StabiliserConstants;
template <>
struct StabiliserConstants<double> {
  static constexpr double ln2High = 0.693145751953125, ln2Low = 1.42860682030941723212e-6;
  static constexpr double maxSteps = 1 << 20;
  static constexpr double lowest = -708.0, highest = 709.0;
  static constexpr int maxPower = 1022;
};
template <>
struct StabiliserConstants<float> {
  static constexpr float ln2High = 0.693359375f, ln2Low = -2.12194440e-4f;
  static constexpr double maxSteps = 1 << 15;
  static constexpr float lowest = -87.0f, highest = 88.0f;
  static constexpr int maxPower = 126;
};

// Rows of projections per block: the block's features stay in the cache between the passes.
constexpr Eigen::Index kRowsPerBlock = 64;

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
  if (logScale < StabiliserConstants<double>::highest) return value * std::exp(logScale);
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

template <class T>
void FeatureMap::queryRows(const InputRows& x, FeatureRows<T> out) const {
  assert(x.cols() == dimension_);
  mapRows(Side::Queries, x, out);
}

template <class T>
void FeatureMap::keyRows(const InputRows& x, FeatureRows<T> out) const {
  assert(x.cols() == dimension_);
  mapRows(Side::Keys, x, out);
}

template void FeatureMap::queryRows(const InputRows&, FeatureRows<double>) const;
template void FeatureMap::queryRows(const InputRows&, FeatureRows<float>) const;
template void FeatureMap::keyRows(const InputRows&, FeatureRows<double>) const;
template void FeatureMap::keyRows(const InputRows&, FeatureRows<float>) const;

namespace {

template <class T>
void copyRows(const FeatureMatrix& features, FeatureRows<T> out) {
  for (Eigen::Index i = 0; i < features.values.rows(); ++i) {
    for (Eigen::Index k = 0; k < features.values.cols(); ++k)
      out.values[i * out.stride + k] = static_cast<T>(features.values(i, k));
    out.logScale[i] = features.logScale[i];
  }
  if (out.plain) applyLogScales(out, features.values.rows(), features.values.cols());
}

}  // namespace

void FeatureMap::mapRows(Side side, const InputRows& x, FeatureRows<double> out) const {
  FeatureMatrix features;
  map(side, x, features);
  copyRows(features, out);
}

void FeatureMap::mapRows(Side side, const InputRows& x, FeatureRows<float> out) const {
  FeatureMatrix features;
  map(side, x, features);
  copyRows(features, out);
}

void FeatureMap::mapThroughRows(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
                                FeatureMatrix& out) const {
  const Eigen::Index rows = x.rows();
  out.values.resize(rows, width_);
  out.logScale.resize(rows);
  RowMajorMatrixXd input, features;
  for (Eigen::Index first = 0; first < rows; first += kRowsPerBlock) {
    const Eigen::Index count = std::min(kRowsPerBlock, rows - first);
    input = x.middleRows(first, count);
    features.resize(count, width_);
    mapRows(side, input, FeatureRows<double>{features.data(), width_, out.logScale.data() + first});
    // The transpose, eight columns at a time: each row's eight values are one read, and the
    // columns' writes run on in order.
    constexpr Eigen::Index kColumns = 8;
    const double* source = features.data();
    for (Eigen::Index k0 = 0; k0 < width_; k0 += kColumns) {
      const Eigen::Index columns = std::min(kColumns, width_ - k0);
      double* target = out.values.data() + k0 * rows + first;
      for (Eigen::Index i = 0; i < count; ++i)
        for (Eigen::Index k = 0; k < columns; ++k)
          target[k * rows + i] = source[i * width_ + k0 + k];
    }
  }
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
  // rescale's powers of two, found once per row and column instead of once per entry.
  std::vector<int> rowPower(static_cast<std::size_t>(estimates.rows()));
  std::vector<char> rowBinary(rowPower.size());
  for (Eigen::Index i = 0; i < estimates.rows(); ++i)
    rowBinary[static_cast<std::size_t>(i)] =
        binaryExponent(queries.logScale[i], &rowPower[static_cast<std::size_t>(i)]);
  for (Eigen::Index j = 0; j < estimates.cols(); ++j) {
    int columnPower = 0;
    const bool columnBinary = binaryExponent(keys.logScale[j], &columnPower);
    for (Eigen::Index i = 0; i < estimates.rows(); ++i) {
      const auto r = static_cast<std::size_t>(i);
      double& value = estimates(i, j);
      if (value != 0 && columnBinary && rowBinary[r] != 0)
        value = std::ldexp(value, rowPower[r] + columnPower);
      else
        value = rescale(value, queries.logScale[i], keys.logScale[j]);
    }
  }
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
  const Eigen::Index d = x.cols(), rows = x.rows();
  // Column i of the rows(Ω) × L result is row i of an L × rows(Ω) row-major one; Xᵀ's columns
  // are the rows of X.
  const PackedFrequencies<double> packed(omega, d);
  out.onFrequencies.resize(omega.rows(), rows);
  projectRows(packed, out.transposedInput.data(), d, rows, out.onFrequencies.data(), omega.rows());
  out.normSquared = out.transposedInput.colwise().squaredNorm();
}

template <class T>
RowStabiliser<T> rowStabiliser(T smallest, T largest, bool empty) {
  using C = StabiliserConstants<T>;
  RowStabiliser<T> s;
  const double steps = std::isfinite(largest) ? std::ceil(largest / kLn2) : 0.0;
  if (!(std::abs(steps) < C::maxSteps)) {
    // Beyond Cody–Waite's exact range (|exponent| > 7e5 in double): the row's largest exponent
    // itself is the scale (the exponents carry |e|·2^-53 of rounding from the inputs there
    // anyway), and an int k would overflow.
    s.logScale = largest;
    s.high = largest;
    return s;
  }
  const int k = static_cast<int>(steps);
  s.logScale = k * kLn2;
  const bool exact =
      !empty && largest < C::highest && smallest > C::lowest && k > -C::maxPower && k < C::maxPower;
  if (exact) {
    s.factor = static_cast<T>(std::ldexp(1.0, -k));
  } else if (k != 0) {
    s.high = static_cast<T>(k) * C::ln2High;
    s.low = static_cast<T>(k) * C::ln2Low;
  }
  return s;
}

template RowStabiliser<double> rowStabiliser(double, double, bool);
template RowStabiliser<float> rowStabiliser(float, float, bool);

void exponentiateColumns(Eigen::MatrixXd& exponents, Eigen::VectorXd& logScale) {
  const Eigen::Index columns = exponents.cols(), n = exponents.rows();
  logScale.resize(columns);
  for (Eigen::Index i = 0; i < columns; ++i) {
    double* column = exponents.col(i).data();
    const double smallest = n > 0 ? exponents.col(i).minCoeff() : kNegativeInfinity;
    const double largest = n > 0 ? exponents.col(i).maxCoeff() : kNegativeInfinity;
    const RowStabiliser<double> s = rowStabiliser(smallest, largest, n == 0);
    logScale[i] = s.logScale;
    exponentials(column, s.high, s.low, s.factor, 1.0, 1.0, n);
  }
}

template <class T>
void applyLogScales(FeatureRows<T> rows, Eigen::Index count, Eigen::Index width) {
  for (Eigen::Index i = 0; i < count; ++i) {
    const double logScale = rows.logScale[i];
    if (logScale == 0) continue;
    T* row = rows.values + i * rows.stride;
    rows.logScale[i] = 0;
    int k = 0;
    if (!binaryExponent(logScale, &k)) {
      const double factor = std::exp(logScale);
      for (Eigen::Index j = 0; j < width; ++j)
        row[j] = static_cast<T>(row[j] * factor);
    } else if (k >= std::numeric_limits<T>::min_exponent - 1 &&
               k <= std::numeric_limits<T>::max_exponent - 1) {
      const T factor = static_cast<T>(std::ldexp(1.0, k));  // a normal T: exact products
      for (Eigen::Index j = 0; j < width; ++j)
        row[j] *= factor;
    } else {
      for (Eigen::Index j = 0; j < width; ++j)
        row[j] = std::ldexp(row[j], k);
    }
  }
}

template void applyLogScales(FeatureRows<double>, Eigen::Index, Eigen::Index);
template void applyLogScales(FeatureRows<float>, Eigen::Index, Eigen::Index);

template <class T>
T takeRowScale(FeatureRows<T> rows, Eigen::Index i) {
  int k = 0;
  if (!rows.plain || !binaryExponent(rows.logScale[i], &k) ||
      k < std::numeric_limits<T>::min_exponent - 1 || k > std::numeric_limits<T>::max_exponent - 1)
    return 1;
  rows.logScale[i] = 0;
  return static_cast<T>(std::ldexp(1.0, k));
}

template <class T>
void finishRow(FeatureRows<T> rows, Eigen::Index i, Eigen::Index width) {
  if (rows.plain && rows.logScale[i] != 0)
    applyLogScales(FeatureRows<T>{rows.values + i * rows.stride, rows.stride, rows.logScale + i}, 1,
                   width);
}

template double takeRowScale(FeatureRows<double>, Eigen::Index);
template float takeRowScale(FeatureRows<float>, Eigen::Index);
template void finishRow(FeatureRows<double>, Eigen::Index, Eigen::Index);
template void finishRow(FeatureRows<float>, Eigen::Index, Eigen::Index);

double kernelRowLogScale(Kernel kernel, double normSquared) {
  return kernel == Kernel::Softmax ? 0.5 * normSquared : 0.0;
}

}  // namespace rfscope
