#include "core/data/labelled_dataset.h"

#include <algorithm>
#include <cmath>

#include "core/data/data_error.h"
#include "core/data/delimited_text.h"

namespace rfscope {

std::vector<Eigen::Index> LabelledDataset::classSizes() const {
  std::vector<Eigen::Index> sizes(classNames.size(), 0);
  for (const int label : labels)
    ++sizes[static_cast<std::size_t>(label)];
  return sizes;
}

LabelledDataset selectRows(const LabelledDataset& data, const std::vector<Eigen::Index>& rows) {
  LabelledDataset subset;
  subset.name = data.name;
  subset.classNames = data.classNames;
  subset.featureNames = data.featureNames;
  const auto count = static_cast<Eigen::Index>(rows.size());
  subset.features.resize(count, data.dimension());
  subset.labels.resize(rows.size());
  if (data.target) subset.target.emplace(count);
  for (Eigen::Index r = 0; r < count; ++r) {
    const Eigen::Index source = rows[static_cast<std::size_t>(r)];
    subset.features.row(r) = data.features.row(source);
    subset.labels[static_cast<std::size_t>(r)] = data.labels[static_cast<std::size_t>(source)];
    if (data.target) (*subset.target)(r) = (*data.target)(source);
  }
  return subset;
}

LabelledDataset firstRows(const LabelledDataset& data, Eigen::Index count) {
  std::vector<Eigen::Index> rows(
      static_cast<std::size_t>(std::clamp<Eigen::Index>(count, 0, data.size())));
  for (std::size_t r = 0; r < rows.size(); ++r)
    rows[r] = static_cast<Eigen::Index>(r);
  return selectRows(data, rows);
}

void checkLabelledDataset(const LabelledDataset& data) {
  const std::string prefix = data.name + ": ";
  const Eigen::Index n = data.size();
  if (n == 0) throw DataError(prefix + "holds no points");
  if (data.dimension() == 0) throw DataError(prefix + "has no feature columns");
  if (static_cast<Eigen::Index>(data.labels.size()) != n)
    throw DataError(prefix + std::to_string(n) + " points but " +
                    std::to_string(data.labels.size()) + " labels");
  if (static_cast<Eigen::Index>(data.featureNames.size()) != data.dimension())
    throw DataError(prefix + std::to_string(data.dimension()) + " features but " +
                    std::to_string(data.featureNames.size()) + " feature names");
  if (data.target && data.target->size() != n)
    throw DataError(prefix + std::to_string(n) + " points but " +
                    std::to_string(data.target->size()) + " targets");
  if (data.classCount() > kMaxClassCount)
    throw DataError(prefix + std::to_string(data.classCount()) +
                    " distinct labels; classification takes at most " +
                    std::to_string(kMaxClassCount) +
                    " classes (is the label column a continuous value or an identifier?)");
  for (const int label : data.labels)
    if (label < 0 || label >= data.classCount())
      throw DataError(prefix + "label " + std::to_string(label) + " outside 0.." +
                      std::to_string(data.classCount() - 1));
  if (!data.features.allFinite())  // name the first bad value
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < data.dimension(); ++j)
        if (!std::isfinite(data.features(i, j)))
          throw DataError(prefix + "point " + std::to_string(i + 1) + ", feature " +
                          quotedCell(data.featureNames[static_cast<std::size_t>(j)]) +
                          ", is not finite");
  if (data.target && !data.target->allFinite())
    throw DataError(prefix + "a regression target is not finite");
  const auto sizes = data.classSizes();
  if (std::count_if(sizes.begin(), sizes.end(), [](Eigen::Index s) { return s > 0; }) < 2)
    throw DataError(prefix + "every point has the same label (" +
                    quotedCell(data.classNames[static_cast<std::size_t>(data.labels.front())]) +
                    "); classification needs at least two classes");
}

LabelledDataset regressionView(LabelledDataset data) {
  std::vector<double> values(data.classNames.size());
  for (std::size_t c = 0; c < values.size(); ++c)
    if (parseCellNumber(data.classNames[c], values[c]) != CellNumber::Finite)
      throw DataError(data.name + ": the label " + quotedCell(data.classNames[c]) +
                      " is not a number, so the labels cannot serve as a regression target");
  Eigen::VectorXd target(data.size());
  for (Eigen::Index i = 0; i < data.size(); ++i)
    target(i) = values[static_cast<std::size_t>(data.labels[static_cast<std::size_t>(i)])];
  data.target = std::move(target);
  return data;
}

}  // namespace rfscope
