#include "core/data/train_test_data.h"

namespace rfscope {

TrainTestData splitAndStandardise(const LabelledDataset& data, const SplitOptions& options) {
  IndexSplit split = splitIndices(data.labels, data.classCount(), options.trainFraction,
                                  options.mode, options.seed, options.purpose);
  TrainTestData result;
  result.train = selectRows(data, split.train);
  result.test = selectRows(data, split.test);
  result.trainRows = std::move(split.train);
  result.testRows = std::move(split.test);
  result.standardizer = FeatureStandardizer::fit(result.train.features);
  if (options.standardise) {
    result.standardizer.apply(result.train.features);
    result.standardizer.apply(result.test.features);
  }
  return result;
}

}  // namespace rfscope
