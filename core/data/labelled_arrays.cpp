#include "core/data/labelled_arrays.h"

#include <charconv>
#include <cmath>

#include "core/data/category_coder.h"
#include "core/data/data_error.h"
#include "core/data/delimited_dataset.h"

namespace rfscope {
namespace {

std::string shortestDecimal(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace

LabelledDataset labelledDatasetFromArrays(std::uint64_t rows, std::uint64_t columns,
                                          const std::vector<double>& featureValues,
                                          const std::vector<double>& labelValues,
                                          const std::string& name) {
  if (rows == 0) throw DataError(name + ": holds no points");
  if (columns == 0) throw DataError(name + ": has no feature columns");
  if (rows > kMaxLabelledFeatureValues / columns)
    throw DataError(name + ": " + std::to_string(rows) + " points × " + std::to_string(columns) +
                    " features is more than the " + std::to_string(kMaxLabelledFeatureValues) +
                    " feature values a dataset may hold");
  if (featureValues.size() != rows * columns)
    throw DataError(name + ": " + std::to_string(featureValues.size()) + " feature values for " +
                    std::to_string(rows) + " points × " + std::to_string(columns) + " features");
  if (labelValues.size() != rows)
    throw DataError(name + ": " + std::to_string(rows) + " points but " +
                    std::to_string(labelValues.size()) +
                    " labels; the labels must have one value per row of the features");

  LabelledDataset data;
  data.name = name;
  const auto n = static_cast<Eigen::Index>(rows), d = static_cast<Eigen::Index>(columns);
  data.features.resize(n, d);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) {
      const double value = featureValues[static_cast<std::size_t>(i * d + j)];
      if (!std::isfinite(value))
        throw DataError(name + ": row " + std::to_string(i + 1) + ", column " +
                        std::to_string(j + 1) + " of the features is " + shortestDecimal(value) +
                        "; every feature must be a finite number");
      data.features(i, j) = value;
    }
  for (Eigen::Index j = 0; j < d; ++j)
    data.featureNames.push_back("column " + std::to_string(j + 1));

  CategoryCoder coder;
  data.labels.resize(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    if (!std::isfinite(labelValues[i]))
      throw DataError(name + ": the label of row " + std::to_string(i + 1) + " is " +
                      shortestDecimal(labelValues[i]) + "; every label must be a finite number");
    // -0 and 0 are one class.
    data.labels[i] =
        coder.provisionalCode(shortestDecimal(labelValues[i] == 0 ? 0.0 : labelValues[i]));
  }
  const CategoryCoder::Order order = coder.order();
  data.classNames = order.names;
  for (int& label : data.labels)
    label = order.finalCode[static_cast<std::size_t>(label)];
  checkLabelledDataset(data);
  return data;
}

}  // namespace rfscope
