#include "core/data/feature_standardizer.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

TEST(FeatureStandardizer, TrainingMeanAndPopulationStandardDeviation) {
  Eigen::MatrixXd train(4, 2);
  train << 1, 10,  //
      2, 20,       //
      3, 30,       //
      4, 40;
  const FeatureStandardizer s = FeatureStandardizer::fit(train);
  EXPECT_EQ(s.mean(), Eigen::RowVector2d(2.5, 25));
  EXPECT_DOUBLE_EQ(s.scale()(0), std::sqrt(1.25));  // NumPy's std (ddof = 0)
  EXPECT_DOUBLE_EQ(s.scale()(1), std::sqrt(125.0));
  Eigen::MatrixXd test(1, 2);
  test << 5, 0;
  s.apply(test);
  EXPECT_DOUBLE_EQ(test(0, 0), 2.5 / std::sqrt(1.25));
  EXPECT_DOUBLE_EQ(test(0, 1), -25 / std::sqrt(125.0));
}

TEST(FeatureStandardizer, ConstantColumnsAreCentredExactlyNotDivided) {
  Eigen::MatrixXd train(3, 2);
  train << 0.1, 1,  //
      0.1, 2,       //
      0.1, 3;       // 0.1 three times: a computed mean would be 0.1 ± 1 ulp
  const FeatureStandardizer s = FeatureStandardizer::fit(train);
  EXPECT_EQ(s.scale()(0), 1.0);
  Eigen::MatrixXd rows = train;
  s.apply(rows);
  EXPECT_TRUE((rows.col(0).array() == 0).all());
  Eigen::MatrixXd test(1, 2);
  test << 0.6, 2;
  s.apply(test);
  EXPECT_DOUBLE_EQ(test(0, 0), 0.5);
  EXPECT_TRUE(test.allFinite());
}

TEST(FeatureStandardizer, LargeOffsetsDoNotCancel) {
  Eigen::MatrixXd train(2, 1);
  train << 1e9 + 1, 1e9 - 1;
  const FeatureStandardizer s = FeatureStandardizer::fit(train);
  EXPECT_DOUBLE_EQ(s.scale()(0), 1.0);
  EXPECT_EQ(s.mean()(0), 1e9);
}

}  // namespace
}  // namespace rfscope
