#pragma once
// Orthogonal random features with every norm fixed at √d (orf-fixed-norm; Demni & Kadri,
// "Orthogonal random features: explicit forms and sharp inequalities", TMLR 2024, arXiv 2310.07370
// — of its text only the abstract and the opening of the introduction were available to us, which
// state the Bessel kernel but not the formulas, so those below are derived here and checked against
// mpmath and Monte Carlo). ω = √d u with u uniform on the unit sphere, so for any fixed z,
// ωᵀz is √d|z| times one coordinate of a uniform unit vector and
//   E cos(ωᵀz) = Ω_d(√d|z|),  Ω_d(r) = Γ(d/2) (2/r)^{d/2-1} J_{d/2-1}(r) = ₀F₁(; d/2; -r²/4),
// the normalised Bessel function (Ω_d(0) = 1; Ω_1 = cos, Ω_3(r) = sin r / r): the estimator's mean
// is this Bessel kernel, not the Gaussian e^{-|z|²/2} (→ it as d → ∞), so TrigRF is biased.
// TrigRF's one feature: V = ½(1 + Ω_d(2a)) - Ω_d(a)², a = √d|z|. Two features of one block: the
// frame vectors u₁, u₂ are orthonormal, so (u₁ ± u₂)/√2 are uniform unit vectors and
// cos α cos β = ½[cos(α + β) + cos(α - β)] gives the covariance C = Ω_d(√2 a) - Ω_d(a)².
// With M features in ⌈M/d⌉ blocks (P = ⌊M/d⌋ d(d-1) + r(r-1), r = M mod d):
//   Var = (M V + P C)/M²  (about the estimator's own mean),  bias = Ω_d(a) - e^{-|z|²/2}.
// PosRF's feature product exp(ωᵀs - |x|² - |y|²), s = x + y, has E exp(ωᵀs) = ₀F₁(; d/2; d|s|²/4)
// (Γ(d/2)(2/r)^{d/2-1} I_{d/2-1}(r), r = √d|s|), and its moments follow as for TrigRF:
//   V = e^{-2c}[F(4) - F(1)²], C = e^{-2c}[F(2) - F(1)²], F(t) = ₀F₁(; d/2; t d|s|²/4),
// c = |x|² + |y|², bias = e^{-c} F(1) - e^{-|x-y|²/2}.

#include <cstdint>

#include "core/math/log_math.h"
#include "core/math/signed_log.h"

namespace rfscope {

// Ω_d(r) for d >= 1, r >= 0. For r²/4 <= d/2 the ₀F₁ series, whose alternating terms then
// shrink from the first; beyond, Boost.Math's cyl_bessel_j combined with Γ(d/2)(2/r)^{d/2-1} in
// logs; where J underflows (large d, r well below the order) the series again, which there loses
// about log₁₀ e^{r²/(2d)} digits to cancellation. Checked against mpmath to 1e-10 relative or
// 1e-14 absolute for d = 1…1024 and r up to 10√d (tests/reference/fixed_norm_bessel.json).
double normalisedBessel(int dimension, double r);
// The same as sign and log magnitude (far below the smallest double for large r and d).
SignedLog logNormalisedBessel(int dimension, double r);

// log ₀F₁(; d/2; x) for x >= 0 (the I-Bessel counterpart: positive terms, summed in logs).
double logNormalisedBesselI(int dimension, double x);

// TrigRF under orf-fixed-norm at |x - y|² = diffNormSquared (Gaussian kernel).
struct FixedNormTrigMoments {
  double mean = 1;   // E K̂ = Ω_d(√d|z|)
  double bias = 0;   // mean - e^{-|z|²/2}
  int biasSign = 0;  // the bias as sign and log magnitude (kept where it underflows)
  double logAbsBias = kNegativeInfinity;
  double variance = 0;  // Var K̂ of the M-feature estimate about its mean
};
// Below a² = 16 (a = √d|z|) V and C are summed as series in a² whose first two terms cancel
// exactly (V, C = O(|z|⁴)), and the a⁴ terms of M V + P C are combined in integers (P and M
// cancel there for full blocks): the variance keeps its relative accuracy as z → 0.
FixedNormTrigMoments fixedNormTrigMoments(int dimension, std::int64_t features,
                                          double diffNormSquared);

// PosRF under orf-fixed-norm: log E K̂, the bias's sign and log magnitude, log Var (Gaussian
// kernel), at |x|² + |y|² = normSquaredSum, |x + y|² = sumNormSquared, |x - y|² = diffNormSquared.
struct FixedNormPositiveMoments {
  double logMean = 0;
  int biasSign = 0;
  double logAbsBias = 0;
  double logVariance = 0;
};
FixedNormPositiveMoments fixedNormPositiveMoments(int dimension, std::int64_t features,
                                                  double normSquaredSum, double sumNormSquared,
                                                  double diffNormSquared);

}  // namespace rfscope
