#include "core/data/dataset_statistics.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/data/regime.h"

namespace rfscope {
namespace {

Eigen::MatrixXd randomSet(int d, int count, unsigned seed, double offset) {
  std::srand(seed);
  return (Eigen::MatrixXd::Random(d, count).array() + offset).matrix();
}

TEST(DatasetStatistics, MatchesBruteForceOverAllPairs) {
  const int d = 7;
  const Eigen::MatrixXd xs = randomSet(d, 13, 1, 0.3), ys = randomSet(d, 9, 2, -0.2);
  double normX = 0, normY = 0, sum = 0, difference = 0, products = 0;
  Eigen::VectorXd absolute = Eigen::VectorXd::Zero(d);
  for (int i = 0; i < xs.cols(); ++i)
    normX += xs.col(i).squaredNorm() / 13;
  for (int j = 0; j < ys.cols(); ++j)
    normY += ys.col(j).squaredNorm() / 9;
  for (int i = 0; i < xs.cols(); ++i)
    for (int j = 0; j < ys.cols(); ++j) {
      const double weight = 1.0 / (13 * 9);
      sum += weight * (xs.col(i) + ys.col(j)).squaredNorm();
      difference += weight * (xs.col(i) - ys.col(j)).squaredNorm();
      products += weight * (xs.col(i).array().square() * ys.col(j).array().square()).sum();
      absolute += weight * (xs.col(i).array() * ys.col(j).array()).abs().matrix();
    }
  const DatasetStatistics s = computeDatasetStatistics(xs, ys);
  EXPECT_EQ(s.dimension, d);
  EXPECT_EQ(s.xCount, 13);
  EXPECT_EQ(s.yCount, 9);
  EXPECT_NEAR(s.meanSquaredNormX, normX, 1e-13);
  EXPECT_NEAR(s.meanSquaredNormY, normY, 1e-13);
  EXPECT_NEAR(s.meanSquaredNormOfSum, sum, 1e-13);
  EXPECT_NEAR(s.meanSquaredNormOfDifference, difference, 1e-13);
  EXPECT_NEAR(s.meanSumOfSquaredProducts, products, 1e-13);
  ASSERT_EQ(s.meanAbsoluteProducts.size(), d);
  for (int l = 0; l < d; ++l)
    EXPECT_NEAR(s.meanAbsoluteProducts[l], absolute[l], 1e-14);
  EXPECT_TRUE(s.meanX.isApprox(xs.rowwise().mean()));
}

TEST(DatasetStatistics, OnePairGivesThatPairsQuantities) {
  const Eigen::VectorXd x = Eigen::Vector3d(1, -2, 0.5), y = Eigen::Vector3d(-3, 0.25, 2);
  const DatasetStatistics s = computeDatasetStatistics(x, y);
  EXPECT_DOUBLE_EQ(s.meanSquaredNormOfSum, (x + y).squaredNorm());
  EXPECT_DOUBLE_EQ(s.meanSquaredNormOfDifference, (x - y).squaredNorm());
  EXPECT_DOUBLE_EQ(s.meanSumOfSquaredProducts, (x.array().square() * y.array().square()).sum());
  EXPECT_TRUE(s.meanAbsoluteProducts.isApprox((x.array() * y.array()).abs().matrix()));
}

TEST(DatasetStatistics, ScalingBySigmaEqualsStatisticsOfScaledSets) {
  const Eigen::MatrixXd xs = randomSet(5, 6, 3, 0.1), ys = randomSet(5, 4, 4, 0.5);
  const double sigma = 1.7;
  const DatasetStatistics a = computeDatasetStatistics(xs, ys).scaled(sigma);
  const DatasetStatistics b = computeDatasetStatistics(sigma * xs, sigma * ys);
  EXPECT_NEAR(a.meanSquaredNormX, b.meanSquaredNormX, 1e-12);
  EXPECT_NEAR(a.meanSquaredNormOfSum, b.meanSquaredNormOfSum, 1e-12);
  EXPECT_NEAR(a.meanSquaredNormOfDifference, b.meanSquaredNormOfDifference, 1e-12);
  EXPECT_NEAR(a.meanSumOfSquaredProducts, b.meanSumOfSquaredProducts, 1e-12);
  EXPECT_TRUE(a.meanAbsoluteProducts.isApprox(b.meanAbsoluteProducts, 1e-14));
  EXPECT_TRUE(a.meanY.isApprox(b.meanY, 1e-14));
}

TEST(DatasetStatistics, PositiveShiftMakesEveryEntryPositiveAndKeepsDifferences) {
  const Eigen::MatrixXd xs = randomSet(4, 5, 5, -0.3), ys = randomSet(4, 3, 6, 0.2);
  const double epsilon = 1e-3;
  const Eigen::VectorXd c = positiveShift(xs, ys, epsilon);
  const Eigen::MatrixXd shiftedX = xs.colwise() - c, shiftedY = ys.colwise() - c;
  EXPECT_GE(shiftedX.minCoeff(), epsilon - 1e-15);
  EXPECT_GE(shiftedY.minCoeff(), epsilon - 1e-15);
  // The smallest entry of each coordinate sits exactly epsilon above zero.
  for (int l = 0; l < 4; ++l)
    EXPECT_NEAR(std::min(shiftedX.row(l).minCoeff(), shiftedY.row(l).minCoeff()), epsilon, 1e-15);
  EXPECT_TRUE((shiftedX.col(1) - shiftedY.col(2)).isApprox(xs.col(1) - ys.col(2)));
}

TEST(DatasetStatistics, OfARegimeAreThoseOfItsPairs) {
  const auto sampler = findRegime("heterogen")->prepare(6, {});
  const DatasetStatistics s = computeDatasetStatistics(*sampler, 3, 500);
  Eigen::MatrixXd xs(6, 500), ys(6, 500);
  Eigen::VectorXd x, y;
  for (int p = 0; p < 500; ++p) {
    sampler->sampleBasePair(3, static_cast<std::uint64_t>(p), x, y);
    xs.col(p) = x;
    ys.col(p) = y;
  }
  EXPECT_EQ(s.meanSquaredNormOfSum, computeDatasetStatistics(xs, ys).meanSquaredNormOfSum);
  // heterogen: E|x|² = d, E|y|² = 2d, E|x + y|² = 3d, S = Σ_l E x_l² E y_l² = 2d (loose bounds).
  EXPECT_NEAR(s.meanSquaredNormX, 6, 1.0);
  EXPECT_NEAR(s.meanSquaredNormY, 12, 1.5);
  EXPECT_NEAR(s.meanSquaredNormOfSum, 18, 2.0);
  EXPECT_NEAR(s.meanSumOfSquaredProducts, 12, 2.0);
}

TEST(DatasetStatistics, RejectsEmptyOrMismatchedSets) {
  EXPECT_THROW(computeDatasetStatistics(Eigen::MatrixXd(3, 0), Eigen::MatrixXd::Ones(3, 2)),
               std::invalid_argument);
  EXPECT_THROW(computeDatasetStatistics(Eigen::MatrixXd::Ones(3, 2), Eigen::MatrixXd::Ones(4, 2)),
               std::invalid_argument);
  EXPECT_THROW(positiveShift(Eigen::MatrixXd::Ones(3, 2), Eigen::MatrixXd(3, 0), 0.1),
               std::invalid_argument);
}

}  // namespace
}  // namespace rfscope
