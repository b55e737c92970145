#include "core/experiments/random_feature_classifier.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/mechanisms/feature_map.h"

namespace rfscope {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// m_l = the largest log-scale of class l's points, and each point's weight e^{logScale_i - m_l}.
void classScalesAndWeights(const Eigen::VectorXd& logScale, const std::vector<int>& labels,
                           int classCount, ClassFeatureSums& out, Eigen::VectorXd& weight) {
  const Eigen::Index count = logScale.size();
  assert(static_cast<std::size_t>(count) == labels.size());
  out.logScale = Eigen::VectorXd::Constant(classCount, kMinusInfinity);
  for (Eigen::Index i = 0; i < count; ++i) {
    const int label = labels[static_cast<std::size_t>(i)];
    out.logScale(label) = std::max(out.logScale(label), logScale(i));
  }
  weight.resize(count);
  for (Eigen::Index i = 0; i < count; ++i)
    weight(i) = std::exp(logScale(i) - out.logScale(labels[static_cast<std::size_t>(i)]));
}

// C_l = Σ_i f⁽²⁾(o_i) weight_i from column-major features, kColumns columns at a time (each pass
// reads them in order): a point adds its products to its class's row of `block`, kColumns
// independent sums rather than one chain through the class's sum. Each sum adds the points in
// order, as the row-major loop below does: the same bits.
void sumColumns(const Eigen::MatrixXd& values, const Eigen::VectorXd& weight,
                const std::vector<int>& labels, int classCount, Eigen::MatrixXd& sums) {
  constexpr Eigen::Index kColumns = 8;
  const Eigen::Index width = values.cols(), count = values.rows();
  sums = Eigen::MatrixXd::Zero(classCount, width);
  std::vector<double> block(static_cast<std::size_t>(classCount) * kColumns);
  for (Eigen::Index first = 0; first < width; first += kColumns) {
    const Eigen::Index columns = std::min(kColumns, width - first);
    std::fill(block.begin(), block.end(), 0.0);
    const double* column = values.col(first).data();
    const Eigen::Index stride = values.outerStride();
    for (Eigen::Index i = 0; i < count; ++i) {
      double* classSum = block.data() + labels[static_cast<std::size_t>(i)] * kColumns;
      const double w = weight(i);
      if (columns == kColumns) {
        for (Eigen::Index k = 0; k < kColumns; ++k)
          classSum[k] += w * column[k * stride + i];
      } else {
        for (Eigen::Index k = 0; k < columns; ++k)
          classSum[k] += w * column[k * stride + i];
      }
    }
    for (Eigen::Index k = 0; k < columns; ++k)
      for (int l = 0; l < classCount; ++l)
        sums(l, first + k) = block[static_cast<std::size_t>(l * kColumns + k)];
  }
}

// The same from row-major features: a point adds its whole row to its class's.
void sumRows(const RowMajorMatrixXd& values, const Eigen::VectorXd& weight,
             const std::vector<int>& labels, int classCount, Eigen::MatrixXd& sums) {
  const Eigen::Index width = values.cols();
  RowMajorMatrixXd rowSums = RowMajorMatrixXd::Zero(classCount, width);
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    double* classSum = rowSums.row(labels[static_cast<std::size_t>(i)]).data();
    const double* row = values.row(i).data();
    const double w = weight(i);
    for (Eigen::Index k = 0; k < width; ++k)
      classSum[k] += w * row[k];
  }
  sums = rowSums;
}

}  // namespace

ClassFeatureSums classFeatureSums(const FeatureMap& map, const Eigen::MatrixXd& train,
                                  const std::vector<int>& trainLabels, int classCount,
                                  FeatureMatrix* firstKeys, Eigen::Index firstCount) {
  assert(static_cast<std::size_t>(train.rows()) == trainLabels.size());
  ClassFeatureSums out;
  Eigen::VectorXd weight;
  firstCount = std::min(firstCount, train.rows());
  if (map.mapsRows()) {
    // Row by row, as the map computes them: no transpose into a column-major matrix.
    RowMajorMatrixXd values(train.rows(), map.width());
    Eigen::VectorXd logScale(train.rows());
    map.keyRows(train, FeatureRows<double>{values.data(), map.width(), logScale.data()});
    classScalesAndWeights(logScale, trainLabels, classCount, out, weight);
    sumRows(values, weight, trainLabels, classCount, out.sums);
    if (firstKeys) {
      firstKeys->values = values.topRows(firstCount);
      firstKeys->logScale = logScale.head(firstCount);
    }
    return out;
  }
  FeatureMatrix keys = map.keys(train);
  classScalesAndWeights(keys.logScale, trainLabels, classCount, out, weight);
  sumColumns(keys.values, weight, trainLabels, classCount, out.sums);
  if (firstKeys) {
    firstKeys->values = keys.values.topRows(firstCount);
    firstKeys->logScale = keys.logScale.head(firstCount);
  }
  return out;
}

ClassScores classScores(const ClassFeatureSums& classes, const FeatureMatrix& queries) {
  const Eigen::Index classCount = classes.sums.rows();
  const Eigen::MatrixXd dots = queries.values * classes.sums.transpose();  // n × C

  ClassScores scores;
  const Eigen::Index testCount = queries.values.rows();
  scores.values.resize(testCount, classCount);
  scores.logScale.resize(testCount);
  Eigen::VectorXd logMagnitude(classCount);
  for (Eigen::Index j = 0; j < testCount; ++j) {
    double largest = kMinusInfinity;
    for (Eigen::Index l = 0; l < classCount; ++l) {
      const double dot = dots(j, l);
      logMagnitude(l) = dot == 0 ? kMinusInfinity : classes.logScale(l) + std::log(std::abs(dot));
      largest = std::max(largest, logMagnitude(l));
    }
    const double shift = std::isfinite(largest) ? largest : 0.0;
    for (Eigen::Index l = 0; l < classCount; ++l)
      scores.values(j, l) = std::copysign(std::exp(logMagnitude(l) - shift), dots(j, l));
    scores.logScale(j) = queries.logScale(j) + shift;
  }
  return scores;
}

ClassScores randomFeatureClassScores(const FeatureMap& map, const Eigen::MatrixXd& train,
                                     const std::vector<int>& trainLabels, int classCount,
                                     const Eigen::MatrixXd& test) {
  return classScores(classFeatureSums(map, train, trainLabels, classCount), map.queries(test));
}

}  // namespace rfscope
