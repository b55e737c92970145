#include "core/data/feature_standardizer.h"

#include <cmath>

namespace rfscope {

FeatureStandardizer FeatureStandardizer::fit(const Eigen::MatrixXd& trainingRows) {
  FeatureStandardizer standardizer;
  const Eigen::Index d = trainingRows.cols();
  const auto n = static_cast<double>(trainingRows.rows());
  standardizer.mean_.resize(d);
  standardizer.scale_.resize(d);
  for (Eigen::Index j = 0; j < d; ++j) {
    const auto column = trainingRows.col(j);
    if (column.size() == 0 || column.minCoeff() == column.maxCoeff()) {
      // Constant: centre on the value itself (a computed mean could be off in the last bit and
      // leave ±1e-16 noise that a division would blow up to ±1).
      standardizer.mean_(j) = column.size() ? column(0) : 0.0;
      standardizer.scale_(j) = 1.0;
      continue;
    }
    // Two passes: the mean, then the squared deviations (no cancellation for large means).
    const double mean = column.sum() / n;
    const double variance = (column.array() - mean).square().sum() / n;
    standardizer.mean_(j) = mean;
    standardizer.scale_(j) = std::sqrt(variance);
  }
  return standardizer;
}

void FeatureStandardizer::apply(Eigen::MatrixXd& rows) const {
  rows = (rows.rowwise() - mean_).array().rowwise() / scale_.array();
}

}  // namespace rfscope
