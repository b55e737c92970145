#include "core/data/labelled_dataset.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

LabelledDataset sample() {
  LabelledDataset data;
  data.name = "sample";
  data.features.resize(4, 2);
  data.features << 1, 10,  //
      2, 20,               //
      3, 30,               //
      4, 40;
  data.labels = {0, 2, 2, 0};
  data.classNames = {"5", "6", "7.5"};
  data.featureNames = {"a", "b"};
  return data;
}

std::string problem(const LabelledDataset& data) {
  try {
    checkLabelledDataset(data);
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

TEST(LabelledDataset, SubsetsKeepClassNumbersAndNames) {
  LabelledDataset data = sample();
  data.target = Eigen::Vector4d(0.5, 1.5, 2.5, 3.5);
  EXPECT_EQ(data.classSizes(), (std::vector<Eigen::Index>{2, 0, 2}));
  const LabelledDataset subset = selectRows(data, {3, 1});
  EXPECT_EQ(subset.features, (Eigen::Matrix2d() << 4, 40, 2, 20).finished());
  EXPECT_EQ(subset.labels, (std::vector<int>{0, 2}));
  EXPECT_EQ(subset.classNames, data.classNames);
  EXPECT_EQ(subset.featureNames, data.featureNames);
  EXPECT_EQ(*subset.target, Eigen::Vector2d(3.5, 1.5));
  EXPECT_EQ(firstRows(data, 2).labels, (std::vector<int>{0, 2}));
  EXPECT_EQ(firstRows(data, 99).size(), 4);
}

TEST(LabelledDataset, RegressionViewReadsTheLabelsAsNumbers) {
  const LabelledDataset data = regressionView(sample());
  ASSERT_TRUE(data.target);
  EXPECT_EQ(*data.target, Eigen::Vector4d(5, 7.5, 7.5, 5));
  LabelledDataset text = sample();
  text.classNames[1] = "six";
  EXPECT_THROW(regressionView(text), DataError);
}

TEST(LabelledDataset, ChecksConsistencyFinitenessAndTwoClasses) {
  EXPECT_EQ(problem(sample()), "");
  LabelledDataset data = sample();
  data.features(2, 1) = std::nan("");
  EXPECT_EQ(problem(data), "sample: point 3, feature 'b', is not finite");
  data = sample();
  data.labels = {2, 2, 2, 2};
  EXPECT_EQ(problem(data),
            "sample: every point has the same label ('7.5'); classification needs at least two "
            "classes");
  data = sample();
  data.labels[0] = 3;
  EXPECT_NE(problem(data).find("label 3 outside 0..2"), std::string::npos);
  data = sample();
  data.labels.pop_back();
  EXPECT_NE(problem(data).find("4 points but 3 labels"), std::string::npos);
  data = sample();
  data.target = Eigen::Vector3d(1, 2, 3);
  EXPECT_NE(problem(data).find("4 points but 3 targets"), std::string::npos);
}

}  // namespace
}  // namespace rfscope
