#pragma once
// Statistics of two sets of vectors {x_i} (L_x of them) and {y_j} (L_y) that the data-driven
// parameter choices of CRT §3 substitute for a single pair's quantities, under the paper's
// homogeneity assumption. Averages over all L_x·L_y pairs (i, j), computed in O((L_x + L_y)·d)
// through per-set sums, never by forming the pairs:
//   - GERF / OPRF, eqs. (6), (7), (8): mean |x_i|², mean |y_j|², mean |x_i + s·y_j|² for s = ±1,
//     using  mean_ij |x_i + s y_j|² = mean|x_i|² + 2s·(mean x)ᵀ(mean y) + mean|y_j|².
//   - PoisRF λ* = sqrt(S / d), eqs. (11), (12): S = mean_ij Σ_l x_il² y_jl²
//     = Σ_l (mean_i x_il²)(mean_j y_jl²).
//   - GeomRF, eqs. (13), (14): for each coordinate l, mean_ij |x_il y_jl|
//     = (mean_i |x_il|)(mean_j |y_jl|), substituted for |x_l y_l| in the product of I_0 terms.
// All of these scale with σ when both sets do (see scaled()).

#include <cstdint>

#include <Eigen/Core>

namespace rfscope {

class PairSampler;

struct DatasetStatistics {
  int dimension = 0;
  Eigen::Index xCount = 0, yCount = 0;
  double meanSquaredNormX = 0;             // mean_i |x_i|²
  double meanSquaredNormY = 0;             // mean_j |y_j|²
  double meanSquaredNormOfSum = 0;         // mean_ij |x_i + y_j|²   (eq. 8, s = +1)
  double meanSquaredNormOfDifference = 0;  // mean_ij |x_i - y_j|² (eq. 8, s = -1)
  double meanSumOfSquaredProducts = 0;     // S = mean_ij Σ_l x_il² y_jl²   (eq. 12)
  Eigen::VectorXd meanAbsoluteProducts;    // per l: mean_ij |x_il y_jl|   (eq. 14)
  Eigen::VectorXd meanX, meanY;            // the set means (per coordinate)

  // The statistics of the sets σ·x_i and σ·y_j: squared norms scale by σ², S by σ⁴.
  DatasetStatistics scaled(double sigma) const;
};

// xs and ys hold one vector per column (d × L_x and d × L_y, the same d, at least one column each).
DatasetStatistics computeDatasetStatistics(const Eigen::MatrixXd& xs, const Eigen::MatrixXd& ys);

// The statistics of the first pairCount base pairs (σ = 1) a regime draws under seed: the x's form
// one set and the y's the other (call scaled(σ) for the regime at σ).
DatasetStatistics computeDatasetStatistics(const PairSampler& sampler, std::uint64_t seed,
                                           std::size_t pairCount);

// The shift c of PoisRF+ / GeomRF+ (CRT §3.2.3): c_l = min over all x_il and y_jl, minus epsilon,
// so that x_i - c and y_j - c have positive entries while every difference x_i - y_j is unchanged.
Eigen::VectorXd positiveShift(const Eigen::MatrixXd& xs, const Eigen::MatrixXd& ys, double epsilon);

}  // namespace rfscope
