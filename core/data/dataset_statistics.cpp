#include "core/data/dataset_statistics.h"

#include <stdexcept>

#include "core/data/regime.h"

namespace rfscope {

DatasetStatistics DatasetStatistics::scaled(double sigma) const {
  const double s2 = sigma * sigma;
  DatasetStatistics result = *this;
  result.meanSquaredNormX *= s2;
  result.meanSquaredNormY *= s2;
  result.meanSquaredNormOfSum *= s2;
  result.meanSquaredNormOfDifference *= s2;
  result.meanSumOfSquaredProducts *= s2 * s2;
  result.meanAbsoluteProducts *= s2;
  result.meanX *= sigma;
  result.meanY *= sigma;
  return result;
}

DatasetStatistics computeDatasetStatistics(const Eigen::MatrixXd& xs, const Eigen::MatrixXd& ys) {
  if (xs.rows() != ys.rows() || xs.cols() == 0 || ys.cols() == 0)
    throw std::invalid_argument("dataset statistics need two non-empty sets of equal dimension");
  DatasetStatistics s;
  s.dimension = static_cast<int>(xs.rows());
  s.xCount = xs.cols();
  s.yCount = ys.cols();
  s.meanX = xs.rowwise().mean();
  s.meanY = ys.rowwise().mean();
  // Per-coordinate means of squares and absolute values: everything else follows from these.
  const Eigen::VectorXd meanSquareX = xs.array().square().rowwise().mean();
  const Eigen::VectorXd meanSquareY = ys.array().square().rowwise().mean();
  s.meanSquaredNormX = meanSquareX.sum();
  s.meanSquaredNormY = meanSquareY.sum();
  const double cross = 2.0 * s.meanX.dot(s.meanY);
  s.meanSquaredNormOfSum = s.meanSquaredNormX + cross + s.meanSquaredNormY;
  s.meanSquaredNormOfDifference = s.meanSquaredNormX - cross + s.meanSquaredNormY;
  s.meanSumOfSquaredProducts = meanSquareX.dot(meanSquareY);
  s.meanAbsoluteProducts = xs.array().abs().rowwise().mean() * ys.array().abs().rowwise().mean();
  return s;
}

DatasetStatistics computeDatasetStatistics(const PairSampler& sampler, std::uint64_t seed,
                                           std::size_t pairCount) {
  const auto count = static_cast<Eigen::Index>(pairCount);
  Eigen::MatrixXd xs(sampler.dimension(), count), ys(sampler.dimension(), count);
  Eigen::VectorXd x, y;
  for (Eigen::Index p = 0; p < count; ++p) {
    sampler.sampleBasePair(seed, static_cast<std::uint64_t>(p), x, y);
    xs.col(p) = x;
    ys.col(p) = y;
  }
  return computeDatasetStatistics(xs, ys);
}

Eigen::VectorXd positiveShift(const Eigen::MatrixXd& xs, const Eigen::MatrixXd& ys,
                              double epsilon) {
  if (xs.rows() != ys.rows() || xs.cols() == 0 || ys.cols() == 0)
    throw std::invalid_argument("the positive shift needs two non-empty sets of equal dimension");
  return xs.rowwise().minCoeff().cwiseMin(ys.rowwise().minCoeff()).array() - epsilon;
}

}  // namespace rfscope
