#pragma once
// Closed forms (1-D integrals) of the variance under orf-norm-coupled (norm_coupling.h). Two
// features of one pair have orthogonal directions u₁ ⟂ u₂ (a Haar pair) and norms
// (r₁, r₂) = (F⁻¹(t), F⁻¹(1 - t)); the vectors r₁u₁ ± r₂u₂ are then isotropic with the norm √W,
// W = r₁² + r₂², so with b = d/2 and the direction average E_s e^{√W sᵀz} = ₀F₁(; b; W|z|²/4):
//   PosRF (z = x + y, u = |z|²):  ρ_pair e^{-u} = e^{-u} E_t ₀F₁(; b; W u/4),
//   TrigRF (z = x - y):           E cos ω₁ᵀz cos ω₂ᵀz = E_t ₀F₁(; b; -W|z|²/4),
// an average over the one uniform t. With χ²_{2d} for W (independent norms) both give ORF's
// ₁F₁(d; b; ±u/2) (SimRF eqs. 23, 26). W is symmetric in t ↔ 1 - t, so t = e^{-L}, L ≥ log 2:
//   E_t g(W) = 2 ∫_{log 2}^∞ g(W(L)) e^{-L} dL,
// integrated by adaptive Gauss–Kronrod split at the integrand's peak (PosRF, in the log domain:
// for large u the mass sits near L = u/2, far in the tail of t).
// Cancellation: E W = 2d exactly (the marginals are χ_d), so the first two terms of ₀F₁ average to
// 1 + u; PosRF's deficit is therefore evaluated as h = P(2, u) - e^{-u} E_t T(W u/4), with
// T(x) = Σ_{k≥2} x^k/((b)_k k!) ≥ 0 and P(2, u) = 1 - e^{-u}(1 + u) the regularised gamma, and
// TrigRF's covariance below |z|² = 1 likewise from the series past its linear term.
// The M-feature variance: the ⌈M/d⌉ blocks are independent; of the ordered pairs in a block of
// m_b features, 2⌊m_b/2⌋ are coupled pairs and the others orthogonal pairs with independent norms
// (ORF's covariance), so with P = Σ_b m_b(m_b - 1) and Q = 2 Σ_b ⌊m_b/2⌋:
//   Var = (M Var₁ + (P - Q) C_ORF + Q C_pair) / M².

#include <cstdint>

namespace rfscope {

// Q = 2 Σ_b ⌊m_b/2⌋: the ordered pairs of features whose norms are coupled.
double antitheticPairCount(std::int64_t features, int dimension);

// One coupled pair of PosRF features, u = |x + y|² <= 700 (NaN beyond): the deficit
// h = 1 - g, accurate where it is small, and log g, g = ρ_pair e^{-u}, accurate where g is small.
struct PairDeficit {
  double deficit = 0;
  double logMean = 0;
};
PairDeficit normCoupledPositivePair(int dimension, double u);

// log Var (Gaussian kernel) of the M-feature PosRF estimator under orf-norm-coupled;
// kNegativeInfinity at u = 0, NaN for u > 700.
double normCoupledPositiveLogVariance(int dimension, std::int64_t features, double diffNormSquared,
                                      double u);

// C_pair = Cov(cos ω₁ᵀ(x - y), cos ω₂ᵀ(x - y)) for one coupled pair (Gaussian kernel).
double normCoupledTrigCovariance(int dimension, double diffNormSquared);

// log Var of the M-feature TrigRF (or random-phase, whose independent phases add no cross term)
// estimator under orf-norm-coupled, from log Var₁ of one feature.
double normCoupledTrigLogVariance(double logOneFeatureVariance, int dimension,
                                  std::int64_t features, double diffNormSquared);

}  // namespace rfscope
