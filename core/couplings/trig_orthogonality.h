#pragma once
// TrigRF (random Fourier features, K̂ = mean of cos(ωᵢᵀ(x - y))) under the orthogonal coupling,
// SimRF eq. (26). Two features of one block have ωᵢ ⟂ ωⱼ with independent χ_d norms, so ωᵢ ± ωⱼ
// is isotropic with |ωᵢ ± ωⱼ| ~ χ_{2d}; with z = |x - y| and E|ωᵢ ± ωⱼ|^{2k} = 2^k (d)_k,
//   E[cos ωᵢᵀΔ cos ωⱼᵀΔ] = E cos((ωᵢ + ωⱼ)ᵀΔ) = Σ_k (d)_k/(d/2)_k (-z²/2)^k/k! = ₁F₁(d; d/2;
//   -z²/2),
// so the covariance of the two features is C = ₁F₁(d; d/2; -z²/2) - e^{-z²} (0 under IID), and
// with M features in ⌈M/d⌉ independent blocks of sizes m_b (P = Σ_b m_b(m_b - 1)):
//   Var_ORF = Var_IID + P C / M²,  gap = Var_IID - Var_ORF = -P C / M²,
// which for M = m <= d is (m-1)/m (e^{-z²} - ₁F₁(d; d/2; -z²/2)): eq. (26) as printed. The gap is
// positive for small z (C ≈ -z⁴/(2(d+2))) but changes sign: ORF can be worse than IID for TrigRF.
// Numerics: the printed series alternates, with terms up to ~e^{z²}/z around a result as small as
// e^{-z²}, so summed in double it has no correct digit left from z ≈ 4 on (d >= 64). Kummer's
// transformation e^{-z²/2} ₁F₁(-d/2; d/2; z²/2) terminates for even d but alternates and cancels
// just as badly for large d. ₁F₁ therefore comes from Boost.Math, which picks a stable method per
// region (within a few ulp of mpmath for d = 2…1024, z <= 20); below z² = 1, where C is O(z⁴) and
// subtracting e^{-z²} would cancel, C is summed directly as
//   C = Σ_{k>=2} 2^k (r_k - 1) (-z²/2)^k / k!,  r_k = Π_{j<k} (d + j)/(d + 2j).

#include <cstdint>

namespace rfscope {

// C = Cov(cos ωᵢᵀ(x-y), cos ωⱼᵀ(x-y)) for two features of one orthogonal block (Gaussian kernel).
double trigOrthogonalCovariance(int dimension, double diffNormSquared);

// The same for two features of one simplex block (cosine -1/(d-1), independent χ_d norms; d >= 2):
//   C = ½ E_ψ[F(1 + sin ψ/(d-1)) + F(1 - sin ψ/(d-1))] - e^{-z²},  F(c) = ₁F₁(d; d/2; -c z²/2),
// ψ with density ∝ sin^{d-1} ψ on [0, π] (the angle of ω_i + ω_j's norm split); adaptive
// Gauss–Kronrod for z² > 1 over a Chebyshev interpolant of F on [1 - 1/(d-1), 1 + 1/(d-1)]
// (33–65 ₁F₁ values instead of ~1,200: milliseconds at d = 1024, where direct evaluation took
// 0.2 s and up to 110 s), the series without the subtraction of e^{-z²} below.
double trigSimplexCovariance(int dimension, double diffNormSquared);

// Var_IID - Var_ORF of the M-feature TrigRF estimator (Gaussian kernel); for M <= d SimRF eq. (26).
// Can be negative.
double trigOrthogonalityGap(int dimension, std::int64_t features, double diffNormSquared);

// log((M Var₁ + P C)/M²): M features in ⌈M/d⌉ blocks (P = Σ_b m_b(m_b - 1)) whose pairs within a
// block have covariance C (trigOrthogonalCovariance, trigSimplexCovariance), from log Var₁ of one
// feature — TrigRF, or random-phase features, whose independent phases add no cross term.
double coupledTrigLogVariance(double logOneFeatureVariance, int dimension, std::int64_t features,
                              double covariance);

// log Var of the M-feature TrigRF estimator under ORF (Gaussian kernel); kNegativeInfinity at x =
// y.
double orthogonalTrigLogVariance(int dimension, std::int64_t features, double diffNormSquared);

}  // namespace rfscope
