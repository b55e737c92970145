#pragma once
// A pair (x, y) seen by an isotropic random frequency ω: only the coordinates of p = x + y and
// q = x - y in an orthonormal 2-frame (e₁, e₂) of span{p, q} matter, because (ωᵀe₁, ωᵀe₂) are
// two independent standard normals and |ω|² adds an independent χ²_{d-2}. The frame's first axis
// follows the longer of p and q, and the second coordinate comes from a re-orthogonalised residual,
// so ωᵀ(x - y) stays accurate when x ≈ y and ωᵀ(x + y) when x ≈ -y.

#include <Eigen/Core>

namespace rfscope {

// Which vector the frame's first axis follows. A mechanism that sees only ωᵀ(x + y) (pos, oprf)
// then needs a single normal per feature: with e₁ ∥ p, p has no second coordinate.
enum class FrameAxis { Longer, Sum, Difference };

struct PairFrame {
  int dimension = 0;
  double sum1 = 0, sum2 = 0;    // coordinates of p = x + y
  double diff1 = 0, diff2 = 0;  // coordinates of q = x - y
  double xNormSquared = 0, yNormSquared = 0;

  // axis1, axis2 (optional): the frame's unit vectors e₁, e₂ (e₂ = 0 when span{p, q} is a line).
  static PairFrame fromVectors(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                               Eigen::VectorXd* axis1 = nullptr, Eigen::VectorXd* axis2 = nullptr,
                               FrameAxis first = FrameAxis::Longer);
  bool planar() const { return sum2 != 0 || diff2 != 0; }  // span{p, q} is 2-dimensional
};

}  // namespace rfscope
