#include "core/data/dataset_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/data/data_error.h"
#include "core/data/train_test_data.h"
#include "core/data/uci_datasets.h"

namespace rfscope {
namespace {

// Every index 0..n-1 exactly once over both parts.
bool partitions(const IndexSplit& split, std::size_t n) {
  std::vector<Eigen::Index> all = split.train;
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  if (all.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (all[i] != static_cast<Eigen::Index>(i)) return false;
  return true;
}

std::vector<int> cyclicLabels(std::size_t n, int classes) {
  std::vector<int> labels(n);
  for (std::size_t i = 0; i < n; ++i)
    labels[i] = static_cast<int>(i % static_cast<std::size_t>(classes));
  return labels;
}

TEST(DatasetSplit, TrainingSizesOfTheEightDatasetsAt90And95Percent) {
  // floor(0.9 n) and floor(0.95 n) with every record; CRT's L (Table 1) is one less for all but
  // nursery because its loader dropped each file's last record.
  const std::pair<const char*, std::array<std::size_t, 3>> expected[] = {
      {"abalone", {3759, 3968, 3758}}, {"banknote", {1234, 1303, 1233}},
      {"car", {1555, 1641, 1554}},     {"yeast", {1335, 1409, 1334}},
      {"cmc", {1325, 1399, 1324}},     {"nursery", {11664, 12312, 11664}},
      {"wifi", {1800, 1900, 1799}},    {"chess", {25250, 26653, 25249}},
  };
  for (const auto& [id, sizes] : expected) {
    const std::size_t n = static_cast<std::size_t>(findUciDataset(id)->records);
    EXPECT_EQ(trainingCount(n, 0.9), sizes[0]) << id;
    EXPECT_EQ(trainingCount(n, 0.95), sizes[1]) << id;
    const bool lastLineBlank = std::string(id) == "nursery";
    EXPECT_EQ(trainingCount(lastLineBlank ? n : n - 1, 0.9), sizes[2]) << id;
  }
  EXPECT_EQ(trainingCount(100, 0.29), 29u);  // 0.29 · 100 = 28.999999999999996 in doubles
}

TEST(DatasetSplit, RefusesFractionsThatLeaveAPartEmpty) {
  for (const double fraction : {0.0, 1.0, -0.5, 1.5, std::nan("")}) {
    try {
      trainingCount(100, fraction);
      FAIL() << fraction;
    } catch (const DataError& e) {
      EXPECT_EQ(e.parameter(), "train-fraction");
    }
  }
  EXPECT_THROW(trainingCount(5, 0.1), DataError);  // no training point
  EXPECT_EQ(trainingCount(5, 0.99), 4u);           // the test part keeps a point
  EXPECT_EQ(trainingCount(2, 0.5), 1u);
}

TEST(DatasetSplit, RandomSplitIsAPermutationFixedBySeedAndPurpose) {
  const std::vector<int> labels = cyclicLabels(1000, 3);
  const IndexSplit a = splitIndices(labels, 3, 0.9, SplitMode::Random, 42);
  EXPECT_EQ(a.train.size(), 900u);
  EXPECT_EQ(a.test.size(), 100u);
  EXPECT_TRUE(partitions(a, 1000));
  const IndexSplit again = splitIndices(labels, 3, 0.9, SplitMode::Random, 42);
  EXPECT_EQ(a.train, again.train);
  EXPECT_EQ(a.test, again.test);
  EXPECT_NE(a.train, splitIndices(labels, 3, 0.9, SplitMode::Random, 43).train);
  EXPECT_NE(a.train,
            splitIndices(labels, 3, 0.9, SplitMode::Random, 42, SplitPurpose::Validation).train);
  // Random order: the test part is not sorted, and the first training points are spread out.
  EXPECT_FALSE(std::is_sorted(a.test.begin(), a.test.end()));
  EXPECT_GT(*std::max_element(a.train.begin(), a.train.begin() + 20), 500);
}

TEST(DatasetSplit, RandomSplitDrawsEachPointIntoTestWithProbabilityOfTheTestFraction) {
  // Over 400 seeds, point i is in the test part about 400 · 0.25 = 100 times (binomial sd 8.7).
  const std::size_t n = 40, seeds = 400;
  std::vector<int> inTest(n, 0);
  for (std::uint64_t seed = 0; seed < seeds; ++seed)
    for (const Eigen::Index i :
         splitIndices(cyclicLabels(n, 2), 2, 0.75, SplitMode::Random, seed).test)
      ++inTest[static_cast<std::size_t>(i)];
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_NEAR(inTest[i], 100, 4.5 * 8.66) << i;  // a 4.5-sd band: a false alarm below 1e-4
}

TEST(DatasetSplit, StratifiedSplitKeepsClassProportionsAndTheSameTrainingSize) {
  // Classes of 500, 300, 150, 45, 5 points.
  std::vector<int> labels;
  for (const auto& [label, count] : {std::pair{0, 500}, {1, 300}, {2, 150}, {3, 45}, {4, 5}})
    labels.insert(labels.end(), static_cast<std::size_t>(count), label);
  const IndexSplit split = splitIndices(labels, 5, 0.9, SplitMode::Stratified, 7);
  EXPECT_TRUE(partitions(split, labels.size()));
  EXPECT_EQ(split.train.size(), trainingCount(labels.size(), 0.9));  // floor(0.9 · 1000) = 900
  std::vector<int> trainCounts(5, 0);
  for (const Eigen::Index i : split.train)
    ++trainCounts[static_cast<std::size_t>(labels[static_cast<std::size_t>(i)])];
  // 0.9 · n_c = 450, 270, 135, 40.5, 4.5: the two halves go to classes 3 and 4 (largest
  // remainders, ties to the lower class) only as far as 900 allows: floors sum to 899.
  EXPECT_EQ(trainCounts, (std::vector<int>{450, 270, 135, 41, 4}));
  EXPECT_EQ(split.train, splitIndices(labels, 5, 0.9, SplitMode::Stratified, 7).train);
  EXPECT_FALSE(std::is_sorted(split.train.begin(), split.train.end()));
}

TEST(DatasetSplit, AbaloneAt90PercentStandardisedWithTrainingStatistics) {
  const LabelledDataset data = loadUciDataset("abalone");
  const TrainTestData split = splitAndStandardise(data, {.trainFraction = 0.9, .seed = 1});
  EXPECT_EQ(split.train.size(), 3759);
  EXPECT_EQ(split.test.size(), 418);
  EXPECT_EQ(split.train.classNames, data.classNames);
  // Training features: mean 0 and population sd 1; the test part uses the same statistics.
  const Eigen::RowVectorXd mean = split.train.features.colwise().mean();
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 1e-13);
  const Eigen::RowVectorXd sd =
      ((split.train.features.rowwise() - mean).array().square().colwise().sum() / 3759.0).sqrt();
  EXPECT_LT((sd.array() - 1).abs().maxCoeff(), 1e-12);
  const Eigen::Index row = split.testRows.front();
  EXPECT_NEAR(
      split.test.features(0, 1),
      (data.features(row, 1) - split.standardizer.mean()(1)) / split.standardizer.scale()(1),
      1e-15);
  EXPECT_EQ(split.test.labels.front(), data.labels[static_cast<std::size_t>(row)]);
  // A validation split of the training part: its own stream under the same seed.
  const TrainTestData tuning = splitAndStandardise(
      split.train, {.trainFraction = 0.9, .seed = 1, .purpose = SplitPurpose::Validation});
  EXPECT_EQ(tuning.train.size(), 3383);
  EXPECT_EQ(tuning.test.size(), 376);
}

}  // namespace
}  // namespace rfscope
