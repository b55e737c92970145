#include "core/experiments/random_feature_classifier.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/mechanisms/feature_map.h"

namespace rfscope {

ClassScores randomFeatureClassScores(const FeatureMap& map, const Eigen::MatrixXd& train,
                                     const std::vector<int>& trainLabels, int classCount,
                                     const Eigen::MatrixXd& test) {
  assert(static_cast<std::size_t>(train.rows()) == trainLabels.size());
  constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
  const FeatureMatrix keys = map.keys(train);

  // m_l = the largest log-scale of class l's points; C_l = Σ_i f⁽²⁾(o_i) e^{logScale_i - m_l}.
  Eigen::VectorXd classScale = Eigen::VectorXd::Constant(classCount, kMinusInfinity);
  for (Eigen::Index i = 0; i < train.rows(); ++i) {
    const int label = trainLabels[static_cast<std::size_t>(i)];
    classScale(label) = std::max(classScale(label), keys.logScale(i));
  }
  Eigen::VectorXd weight(train.rows());
  for (Eigen::Index i = 0; i < train.rows(); ++i)
    weight(i) = std::exp(keys.logScale(i) - classScale(trainLabels[static_cast<std::size_t>(i)]));
  // Column by column: the feature matrix is column-major, so each pass reads memory in order.
  Eigen::MatrixXd classSums = Eigen::MatrixXd::Zero(classCount, keys.values.cols());
  for (Eigen::Index k = 0; k < keys.values.cols(); ++k) {
    const double* column = keys.values.col(k).data();
    double* sums = classSums.col(k).data();
    for (Eigen::Index i = 0; i < train.rows(); ++i)
      sums[trainLabels[static_cast<std::size_t>(i)]] += weight(i) * column[i];
  }

  const FeatureMatrix queries = map.queries(test);
  const Eigen::MatrixXd dots = queries.values * classSums.transpose();  // n × C

  ClassScores scores;
  scores.values.resize(test.rows(), classCount);
  scores.logScale.resize(test.rows());
  Eigen::VectorXd logMagnitude(classCount);
  for (Eigen::Index j = 0; j < test.rows(); ++j) {
    double largest = kMinusInfinity;
    for (int l = 0; l < classCount; ++l) {
      const double dot = dots(j, l);
      logMagnitude(l) = dot == 0 ? kMinusInfinity : classScale(l) + std::log(std::abs(dot));
      largest = std::max(largest, logMagnitude(l));
    }
    const double shift = std::isfinite(largest) ? largest : 0.0;
    for (int l = 0; l < classCount; ++l)
      scores.values(j, l) = std::copysign(std::exp(logMagnitude(l) - shift), dots(j, l));
    scores.logScale(j) = queries.logScale(j) + shift;
  }
  return scores;
}

}  // namespace rfscope
