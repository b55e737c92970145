#pragma once
// Helpers shared by the attention tests: every row of a problem, and matrices from the committed
// reference files.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/attention/attention_problem.h"
#include "core/random/trial_stream.h"

namespace rfscope::test {

// L rows of N(0, norm²/d) queries and keys (|x| ≈ norm) and N(0, 1) values of width dv, from the
// stream of `seed`.
inline AttentionProblem problemOfNorm(Eigen::Index length, int d, Eigen::Index dv, double norm,
                                      std::uint64_t seed, bool causal) {
  TrialStream stream(seed, 0);
  const double scale = norm / std::sqrt(static_cast<double>(d));
  return gaussianAttentionProblem(length, d, dv, scale, stream, causal);
}

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
