#include "core/data/class_predictions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace rfscope {
namespace {

TEST(ClassPredictions, ArgmaxTakesTheLowestOfTiedClassesAndSkipsNan) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  Eigen::MatrixXd scores(5, 3);
  scores << 1, 3, 2,   //
      5, 5, 1,         //
      nan, -1, -2,     //
      -inf, -inf, -7,  //
      nan, nan, nan;
  EXPECT_EQ(argmaxClasses(scores), (std::vector<int>{1, 0, 1, 2, -1}));
}

TEST(ClassPredictions, AccuracyAndDisagreement) {
  EXPECT_DOUBLE_EQ(accuracy({0, 1, 2, 1}, {0, 1, 1, 1}), 0.75);
  EXPECT_DOUBLE_EQ(disagreement({0, 1, 2, 1}, {0, 1, 1, 1}), 0.25);
  EXPECT_EQ(accuracy({-1}, {0}), 0.0);
  EXPECT_EQ(accuracy({}, {}), 0.0);
  EXPECT_EQ(disagreement({}, {}), 0.0);
}

// Misuse is asserted (README, "Errors"), in every build type.
TEST(ClassPredictionsDeathTest, AssertsListsOfOneLength) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(accuracy({0}, {0, 1}), "different lengths");
}

}  // namespace
}  // namespace rfscope
