#pragma once
// Random Maclaurin features for the dot-product kernel e^{xᵀy} = Σ_n a_n (xᵀy)ⁿ, a_n = 1/n!
// (Kar & Karnick 2012; variances and the data-driven degree law after Wacker, Kanagawa & Filippone,
// "Improved random features for dot product kernels", arXiv 2201.08712 — of that paper only the
// abstract was available to us, so everything below is derived here and checked against mpmath).
//
// One feature: a degree N ~ p(n), then N i.i.d. Rademacher vectors w_1 … w_N ∈ {±1}^d, and
//   φ(x) = √(a_N / p(N)) Π_j w_jᵀx        (√(a_0/p(0)) for N = 0),
// so E[φ(x)φ(y)] = Σ_n a_n (xᵀy)ⁿ = e^{xᵀy} (E[(wᵀx)(wᵀy)] = xᵀy), the softmax kernel; the Gaussian
// kernel is e^{-|x|²/2} φ(x) · e^{-|y|²/2} φ(y). With s = xᵀy and
//   c = E[(wᵀx)²(wᵀy)²] = |x|²|y|² + 2s² - 2Σ_l x_l² y_l²   (Rademacher: E w_l⁴ = 1, not 3),
// the second moment of one feature product is E Z² = Σ_n (a_n²/p(n)) cⁿ, minimised over all laws
// (Cauchy–Schwarz) by p(n) ∝ a_n c^{n/2}: the Poisson law with λ* = √c. Both laws in closed form:
//   Poisson(λ):                    E Z² = e^{λ + c/λ}
//   geometric p(n) = 2^{-(n+1)}:   E Z² = 2 Σ_n (2c)ⁿ/n!² = 2 I₀(2√(2c))        (Kar & Karnick)
// Relative to K² = e^{2s}: Var = K² expm1(g), g = log E Z² - 2s, and with v = c - s² ≥ 0 (the
// variance of (wᵀx)(wᵀy), = Σ_{l<m} (x_l y_m + x_m y_l)²)
//   Poisson:   g = ((λ - s)² + v)/λ                  (a sum of squares: no cancellation)
//   geometric: g = log 2 + log I₀(2√(2c)) - 2s
// Both laws have every degree in their support: the estimator is exactly unbiased, with no
// truncation of the series (Wacker et al. truncate theirs at a largest degree). The series need no
// summation: the closed forms are its exact sums, evaluated in the log domain (no overflow for any
// variance a double's logarithm holds). Gaussian kernel: Var = e^{-|x - y|²} expm1(g).

#include <Eigen/Core>

#include "core/mechanisms/data_driven_parameters.h"

namespace rfscope {

enum class MaclaurinDegrees { Poisson, Geometric };

// What the variances need of a pair: s = xᵀy, v = c - s² ≥ 0 (in long double, clamped at 0) and c.
struct MaclaurinPair {
  double dot = 0;     // s
  double spread = 0;  // v
  double moment = 0;  // c = s² + v
};
MaclaurinPair maclaurinPair(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

// λ* = √c, the variance-optimal degree law of the pair (0 where x or y is 0: then N = 0 always and
// the estimate is exact).
double maclaurinLambdaStar(const MaclaurinPair& pair);

// g = log(E Z²/K²) of one feature (K = e^{xᵀy}); lambda is used by the Poisson law only.
double maclaurinExcess(MaclaurinDegrees degrees, double lambda, const MaclaurinPair& pair);
// g at λ = λ*: 2(√c - s), written without cancellation.
double maclaurinOptimalExcess(const MaclaurinPair& pair);

// log Var of one feature, Gaussian kernel: -|x - y|² + log expm1(g).
double maclaurinLogVariance(double diffNormSquared, double excess);

// λ for every pair of two sets: √(mean |x|² · mean |y|²), the pair optimum √c at the mean of c over
// all pairs (x_i, y_j) from O(Ld) statistics — exact up to the off-diagonal second moments
// 2 Σ_{l≠m} (mean x_l x_m)(mean y_l y_m), which vanish for coordinates uncorrelated in either set
// (Wacker et al.'s p(n) ∝ a_n √(mean cⁿ) is the same law when the pairs share one c).
double dataDrivenMaclaurinLambda(const SetStatistics& stats);

}  // namespace rfscope
