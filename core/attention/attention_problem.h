#pragma once
// One softmax-attention problem: queries x_i, keys y_j and values v_j, rows = points. Queries and
// keys are already scaled (x = q·d^{-1/4}, y = k·d^{-1/4}), so the softmax kernel is SM(x, y) =
// exp(xᵀy) and exact attention is A = diag(SM 1)⁻¹ SM, output O = A V. Causal attention lets row
// i see the keys 0..i only (prefix sums on the random-feature side).

#include <Eigen/Core>

namespace rfscope {

class TrialStream;

struct AttentionProblem {
  Eigen::MatrixXd queries;  // L × d
  Eigen::MatrixXd keys;     // L_k × d (L_k = L when causal)
  Eigen::MatrixXd values;   // L_k × d_v
  bool causal = false;

  Eigen::Index rows() const { return queries.rows(); }
  // The keys row i attends to: 0 .. keyCount(i) - 1.
  Eigen::Index keyCount(Eigen::Index row) const { return causal ? row + 1 : keys.rows(); }
};

// Throws InvalidParameter (naming `parameter`) unless the shapes fit: equal dimensions, one value
// per key, at least one row, as many keys as queries when causal, and finite entries.
void checkAttentionProblem(const AttentionProblem& problem, const char* parameter);

// L queries and L keys with N(0, scale²) entries and L values of dimension dv with N(0, 1)
// entries, drawn in that order (row by row) from `stream`.
AttentionProblem gaussianAttentionProblem(Eigen::Index length, int d, Eigen::Index dv, double scale,
                                          TrialStream& stream, bool causal = false);

}  // namespace rfscope
