#pragma once
// A dataset split into training and test points (dataset_split.h), with features standardised by
// the training points' statistics (feature_standardizer.h). What a classification run works on:
//
//   const LabelledDataset data = loadUciDataset("abalone");
//   const TrainTestData split = splitAndStandardise(data, {.trainFraction = 0.9, .seed = seed});
//   // split.train.size() == 3759; split.test: the other 418 points
//   // σ search: a validation split of the training part, with its own stream under the seed
//   const TrainTestData tuning = splitAndStandardise(split.train, {.trainFraction = 0.9,
//       .seed = seed, .purpose = SplitPurpose::Validation});
//
// Regression targets are carried along unchanged (not standardised).

#include <cstdint>
#include <vector>

#include "core/data/dataset_split.h"
#include "core/data/feature_standardizer.h"
#include "core/data/labelled_dataset.h"

namespace rfscope {

struct SplitOptions {
  double trainFraction = 0.9;
  SplitMode mode = SplitMode::Random;
  std::uint64_t seed = 0;
  SplitPurpose purpose = SplitPurpose::Evaluation;
  bool standardise = true;
};

struct TrainTestData {
  LabelledDataset train, test;       // standardised (unless options.standardise is false)
  FeatureStandardizer standardizer;  // fitted on the training points
  std::vector<Eigen::Index> trainRows, testRows;  // rows of the source dataset
};

// Throws DataError (key "train-fraction") when the fraction leaves either part empty.
TrainTestData splitAndStandardise(const LabelledDataset& data, const SplitOptions& options);

}  // namespace rfscope
