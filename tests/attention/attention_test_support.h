#pragma once
// Helpers shared by the attention tests: every row of a problem, and matrices from the committed
// reference files.

#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/attention/attention_problem.h"

namespace rfscope::test {

// The indices 0 .. L-1 of the problem's query rows.
inline std::vector<Eigen::Index> allRows(const AttentionProblem& problem) {
  std::vector<Eigen::Index> rows;
  for (Eigen::Index i = 0; i < problem.rows(); ++i)
    rows.push_back(i);
  return rows;
}

// A matrix from a JSON array of equally long rows of numbers.
inline Eigen::MatrixXd matrixFromJson(const nlohmann::json& rows) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()),
                    static_cast<Eigen::Index>(rows[0].size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      m(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<double>();
  return m;
}

}  // namespace rfscope::test
