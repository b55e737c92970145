#pragma once
// Dense-exponential random features (DERF, "FAVOR#", Likhosherstov et al. 2023), the
// generalisation of GERF to matrix parameters: f(ω, x) = D exp(ωᵀAω + ωᵀBx + xᵀCx). The paper is
// not available to us: the construction, the unbiasedness conditions, the variance and the
// data-driven optima below are derived from first principles (Gaussian integrals) and checked
// against mpmath (tests/reference/derf_references.json).
//
// Canonical form (any DERF reduces to it by rotating ω, which leaves N(0, I) unchanged): a ∈ ℝ^d
// with r_l = 1 - 8a_l > 0, T1, T2 ∈ ℝ^{d×d} with T1ᵀT2 = I (then (T1x)ᵀ(T2y) = xᵀy);
//   x̃ = T1x, ỹ = T2y, b_l = √(1 - 4a_l), log D = ¼ Σ log1p(-4a_l),
//   f⁽¹⁾(ω, x) = exp(log D + Σ a_l ω_l² + Σ b_l ω_l x̃_l - ½(|x|² + |x̃|²)), f⁽²⁾ the same with y, ỹ,
// which is the DERF A = U diag(a) Uᵀ, B₁ = (I - 4A)^{1/2} Q, B₂ = (I - 4A)^{1/2} Q^{-T},
// C₁ = -½(I + QᵀQ), C₂ = -½(I + (QᵀQ)^{-1}), D = det(I - 4A)^{1/4}, T1 = UᵀQ, T2 = UᵀQ^{-T}.
// Unbiased for every x, y iff I - 4A ≻ 0 and T1ᵀT2 = I; finite variance iff every r_l > 0;
// bounded in ω iff every a_l < 0 (the optima have a_l ≤ 0). OPRF is a_l = A, T1 = T2 = I.
//
// One feature, Gaussian kernel: with q = x̃ + ỹ and ℓ(r) = log((1 + r)/2) - ½ log r ≥ 0,
//   g = log(E Z²/K²) = Σ_l [ℓ(r_l) + q_l²/r_l],   log Var = -|x - y|² + log expm1(g).

#include <vector>

#include <Eigen/Core>

namespace rfscope {

struct DerfParameters {
  Eigen::VectorXd a;   // per coordinate of ω, r_l = 1 - 8a_l > 0
  Eigen::MatrixXd t1;  // x̃ = T1 x
  Eigen::MatrixXd t2;  // ỹ = T2 y, T1ᵀT2 = I
};

// ℓ(r) = log((1 + r)/2) - ½ log r = log1p((r - 1)² / (2√r (1 + √r)²)) ≥ 0, without the
// cancellation of the difference near r = 1.
double derfPrefactorTerm(double r);

// g = log(E Z² / K²) of one feature at (x, y) (≥ 0).
double derfLogSecondMomentRatio(const DerfParameters& p, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y);
// log Var of one feature, Gaussian kernel (-∞ where g = 0: the estimator is exact).
double derfLogVariance(const DerfParameters& p, const Eigen::VectorXd& x, const Eigen::VectorXd& y);
// Cov(Z(x₁, y₁), Z(x₂, y₂)) of one shared ω as (sign, log|Cov|), Gaussian kernel:
// K₁K₂ expm1(φ), φ = Σ_l [ℓ(r_l) + ((q₁ + q₂)_l² - r_l (q₁ - q₂)_l²)/(4r_l)].
struct DerfCovariance {
  int sign = 0;
  double logAbs = 0;
};
DerfCovariance derfCovariance(const DerfParameters& p, const Eigen::VectorXd& x1,
                              const Eigen::VectorXd& y1, const Eigen::VectorXd& x2,
                              const Eigen::VectorXd& y2);

// log f⁽¹⁾(ω_k, x_i) (first = true: T1) or log f⁽²⁾(ω_k, x_i) (T2) for the rows ω_k of omega
// (M × d) and x_i of x (L × d), Gaussian kernel: L × M. f⁽¹⁾f⁽²⁾ averaged over ω ~ N(0, I) is K.
Eigen::MatrixXd derfLogFeatures(const DerfParameters& p, const Eigen::MatrixXd& omega,
                                const Eigen::MatrixXd& x, bool first);

// The canonical form of the DERF with a symmetric A (I - 8A ≻ 0) and an invertible Q (B₁ = (I -
// 4A)^{1/2}Q, B₂ = (I - 4A)^{1/2}Q^{-T}).
DerfParameters derfFromMatrices(const Eigen::MatrixXd& a, const Eigen::MatrixXd& q);

// p for inputs padded with zeros to n ≥ its dimension (a_l = 0 and the identity on the new
// coordinates: the same estimator), as the structured couplings pad to their frequency dimension.
DerfParameters paddedDerfParameters(const DerfParameters& p, Eigen::Index n);

// The moments of two sets the data-driven parameters need (O(Ld²)).
struct DerfMoments {
  Eigen::MatrixXd m1, m2;  // mean xxᵀ, mean yyᵀ
  Eigen::VectorXd mean1, mean2;
};
DerfMoments derfMoments(const std::vector<Eigen::VectorXd>& xs,
                        const std::vector<Eigen::VectorXd>& ys);
// The same moments for the sets scaled by σ (second moments by σ², means by σ).
DerfMoments scaledMoments(const DerfMoments& moments, double sigma);

// The relative ridge of ADERF's second moments (keeps sets with fewer points than d valid).
inline constexpr double kAderfRidge = 1e-6;

// Parameters minimising the mean over all pairs of g (as CRT eq. 8 does for OPRF), with the value
// of that objective:
//   SDERF (B₁ = B₂): eigen Σ_p = M1 + M2 + m1m2ᵀ + m2m1ᵀ = U diag(λ) Uᵀ, r_l = OPRF's root for
//     d = 1 at λ_l, T1 = T2 = Uᵀ — the global optimum;
//   ADERF (scalar A, B₁ ≠ B₂): Q from the geometric mean of the ridged M1⁻¹ and M2 (Q M1 Qᵀ =
//     Q^{-T} M2 Q^{-1}), W = mean ppᵀ with p = Qx + Q^{-T}y, r = OPRF's root at u = tr W — the
//     global optimum over (scalar A, Q) for the ridged moments;
//   ADERF with a dense A (our extension): the same Q, then r_l from the eigenvalues of W;
//   SADERF (scalar A, diagonal maps; saderfParameters below).
struct DerfChoice {
  DerfParameters parameters;
  double objective = 0;
  double traceW = 0;  // ADERF, SADERF: u = mean |x̃ + ỹ|² (tr W)
};
DerfChoice sderfParameters(const DerfMoments& moments);
DerfChoice aderfParameters(const DerfMoments& moments, bool denseA = false);

// SADERF, the simplified ADERF (scalar A, T1 = Ψ, T2 = Ψ⁻¹ diagonal): x̃ = Ψx, ỹ = Ψ⁻¹y with
//   Ψ_l = ((mean y_l² + ρ) / (mean x_l² + ρ))^{1/4}   (= (Σ_j y_jl² / Σ_i x_il²)^{1/4} for sets
//   of equal size and ρ → 0; ρ is ADERF's relative ridge, which keeps coordinates that are zero
//   in every query or key valid), u = mean |x̃ + ỹ|² = Σ_l [Ψ_l² mean x_l² + mean y_l²/Ψ_l²] +
//   2 (mean x)ᵀ(mean y) from the un-ridged statistics, r = OPRF's root at u. For every scalar A
//   the objective d ℓ(r) + u/r falls with u, and Ψ_l minimises coordinate l of u, so this is the
//   global optimum over (scalar A, diagonal Ψ): between OPRF (Ψ = I) and ADERF (any Q). It reads
//   only per-coordinate statistics (O(Ld) to gather): the diagonals of M1 and M2 and the means.
DerfChoice saderfParameters(const Eigen::VectorXd& meanSquares1,
                            const Eigen::VectorXd& meanSquares2, const Eigen::VectorXd& mean1,
                            const Eigen::VectorXd& mean2);
DerfChoice saderfParameters(const DerfMoments& moments);

}  // namespace rfscope
