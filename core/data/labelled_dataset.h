#pragma once
// A labelled dataset for classification (and, where the labels are numbers, regression): points
// with d real features and a class each. Classes are numbered 0..C-1 and keep their original label
// text; class numbers stay the same in every subset (a training split may lack a rare class), so
// predictions on any split compare with the labels directly.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace rfscope {

// More distinct labels than this are refused: a column with that many is almost surely a
// continuous target or an identifier, and class scores take test points × classes memory.
inline constexpr int kMaxClassCount = 10000;

struct LabelledDataset {
  std::string name;                       // "abalone", or the file's name
  Eigen::MatrixXd features;               // n × d, one point per row
  std::vector<int> labels;                // n classes, each in 0..classNames.size()-1
  std::vector<std::string> classNames;    // the original label of each class
  std::vector<std::string> featureNames;  // d names ("sex", "length", ...; "column 3" if unknown)
  std::optional<Eigen::VectorXd> target;  // n real values to regress on, when there are any

  Eigen::Index size() const { return features.rows(); }
  Eigen::Index dimension() const { return features.cols(); }
  int classCount() const { return static_cast<int>(classNames.size()); }
  // How many points each class has.
  std::vector<Eigen::Index> classSizes() const;
};

// The points `rows` (in that order) with their labels and targets; names and classes unchanged.
LabelledDataset selectRows(const LabelledDataset& data, const std::vector<Eigen::Index>& rows);

// The first `count` points (all when fewer): with the shuffled order of a split (dataset_split.h),
// a random subset, as the papers use for quick searches on the large datasets.
LabelledDataset firstRows(const LabelledDataset& data, Eigen::Index count);

// Throws DataError (named after data.name) unless the dataset is consistent and usable for
// classification: sizes agree, labels are in range, features (and targets) are finite, at least
// one feature, and at least two classes actually occur.
void checkLabelledDataset(const LabelledDataset& data);

// The dataset with target = its labels read as numbers (abalone's rings), for regression. Throws
// DataError when a class name is not a number.
LabelledDataset regressionView(LabelledDataset data);

}  // namespace rfscope
