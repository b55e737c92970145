#pragma once
// Exact softmax attention, blocked over query rows so that no L × L matrix is held: O(L² d) work,
// O(256·L) memory. Row i: log D_i = logsumexp_j x_iᵀy_j, o_i = Σ_j A_ij v_j with A_ij =
// exp(x_iᵀy_j - log D_i) — every exponent ≤ 0, so nothing overflows at any norm.

#include <vector>

#include <Eigen/Core>

#include "core/attention/attention_problem.h"

namespace rfscope {

struct ExactAttention {
  Eigen::VectorXd logNormaliser;  // log D_i, L
  Eigen::MatrixXd output;         // o_i, L × d_v
};

ExactAttention exactAttention(const AttentionProblem& problem);

// Chosen rows of the attention matrix (|rows| × L_k; zero beyond a causal row's keys).
struct ExactAttentionRows {
  std::vector<Eigen::Index> rows;
  Eigen::MatrixXd attention;
  Eigen::VectorXd logNormaliser;  // log D_i of those rows
};

ExactAttentionRows exactAttentionRows(const AttentionProblem& problem,
                                      std::vector<Eigen::Index> rows);

}  // namespace rfscope
