#pragma once
// The few inner products of a pair (x, y) that the closed forms depend on.

#include <Eigen/Core>

namespace rfscope {

struct PairGeometry {
  int dimension = 0;
  double xNormSquared = 0;     // |x|²
  double yNormSquared = 0;     // |y|²
  double dot = 0;              // xᵀy
  double diffNormSquared = 0;  // |x - y|², summed from differences (exact when x ≈ y)
  double sumNormSquared = 0;   // |x + y|², summed from sums (exact when x ≈ -y)

  static PairGeometry fromVectors(const Eigen::VectorXd& x, const Eigen::VectorXd& y);
  // The geometry of (σx, σy): every product scales by σ² (one rounding each).
  PairGeometry scaled(double sigma) const;
};

}  // namespace rfscope
