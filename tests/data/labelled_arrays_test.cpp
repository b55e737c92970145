#include "core/data/labelled_arrays.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

std::string problem(std::uint64_t rows, std::uint64_t columns, const std::vector<double>& features,
                    const std::vector<double>& labels) {
  try {
    labelledDatasetFromArrays(rows, columns, features, labels, "'x.npy'");
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

TEST(LabelledArrays, RowMajorFeaturesAndNumericLabelsInNumericOrder) {
  const LabelledDataset data =
      labelledDatasetFromArrays(3, 2, {1, 2, 3, 4, 5, 6}, {10, 2, -0.0}, "'x.npy'");
  Eigen::MatrixXd expected(3, 2);
  expected << 1, 2, 3, 4, 5, 6;
  EXPECT_EQ(data.features, expected);
  EXPECT_EQ(data.classNames, (std::vector<std::string>{"0", "2", "10"}));
  EXPECT_EQ(data.labels, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(data.featureNames, (std::vector<std::string>{"column 1", "column 2"}));
  const LabelledDataset halves = labelledDatasetFromArrays(2, 1, {0, 1}, {0.5, 1.5}, "'x.npy'");
  EXPECT_EQ(halves.classNames, (std::vector<std::string>{"0.5", "1.5"}));
}

TEST(LabelledArrays, RefusesMismatchedSizesNonFiniteValuesAndOneClass) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(problem(2, 2, {1, 2, 3}, {0, 1}).find("3 feature values for 2 points × 2"),
            std::string::npos);
  EXPECT_NE(problem(2, 1, {1, 2}, {0, 1, 1}).find("2 points but 3 labels"), std::string::npos);
  EXPECT_NE(problem(2, 2, {1, 2, nan, 4}, {0, 1}).find("row 2, column 1 of the features is nan"),
            std::string::npos);
  EXPECT_NE(problem(2, 1, {1, 2}, {0, INFINITY}).find("label of row 2 is inf"), std::string::npos);
  EXPECT_NE(problem(2, 1, {1, 2}, {3, 3}).find("at least two classes"), std::string::npos);
  EXPECT_NE(problem(0, 1, {}, {}).find("no points"), std::string::npos);
  EXPECT_NE(problem(2, 0, {}, {0, 1}).find("no feature columns"), std::string::npos);
}

}  // namespace
}  // namespace rfscope
