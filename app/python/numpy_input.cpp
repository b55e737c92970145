#include "app/python/numpy_input.h"

#include <cmath>
#include <sstream>

#include "app/cli/estimator_arguments.h"
#include "core/data/input_limits.h"

namespace rfscope::python {

Eigen::Map<const RowMajorMatrix> pointsOf(const DoubleArray& array) {
  return {array.data(), array.shape(0), array.shape(1)};
}

void checkPoints(const std::string& name, const Eigen::Map<const RowMajorMatrix>& points) {
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    // The row is named only when it is refused: the check is in the loop of every call.
    if (points.row(i).allFinite() && points.row(i).cwiseAbs().maxCoeff() <= kMaxDataMagnitude)
      continue;
    const std::string row = name + " (row " + std::to_string(i) + ")";
    for (Eigen::Index j = 0; j < points.cols(); ++j)
      if (!std::isfinite(points(i, j))) {
        std::ostringstream value;
        value << points(i, j);
        throw cli::UsageError(row + ": entry " + std::to_string(j + 1) + ", " + value.str() +
                              ", is not a finite number");
      }
    cli::checkEntryMagnitudes(row, points.row(i).data(), static_cast<std::size_t>(points.cols()));
  }
}

}  // namespace rfscope::python
