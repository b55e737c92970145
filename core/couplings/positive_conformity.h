#pragma once
// RF-conformity and coupled MSE of positive random features (PosRF) under IID, orthogonal (ORF) and
// simplex (SimRF) couplings (Reid et al. 2023, "SimRF"). With u = v² = |x + y|²:
//   ρ_IID = e^u (eq. 19),  ρ_ORF = ₁F₁(d; d/2; u/2) (eq. 23),  ρ_SimRF = eq. (24) = eq. (21) at
//   cos θ = -1/(d-1).
// Everything is computed through the deficit h = 1 - ρe^{-u} ∈ [0, 1), a Poisson(u) average of
// non-negative terms, so that neither tiny v (h = O(u) or O(u²)) nor the alternating inner sum of
// eq. (24) cancels:
//   h = Σ_k P(k; u) (1 - r_k m_k),  r_k = Π_{j<k} (d + j)/(d + 2j),  m_k = E[(1 + cos θ sin φ)^k],
// φ with density ∝ sin^{d-1}φ on [0, π]; m_k = 1 for ORF. m_k comes from its binomial expansion in
// the moments of sin φ where that sum cannot cancel by more than 1e4, and otherwise from tanh-sinh
// quadrature over φ of the whole (positive) integrand.
// MSE with M features in ⌈M/d⌉ independent blocks (the last one partial, sizes m_b), eq. (11)
// summed over blocks:  Var = K²/M² [M expm1(u) - h Σ_b m_b(m_b - 1)].

#include <cstdint>

#include "core/couplings/coupling.h"
#include "core/math/outcome.h"

namespace rfscope {

// The couplings with closed forms for positive features: iid, orf and simrf. Every function below
// reports the others as unavailable (NaN, or an Outcome with the reason).
bool hasPositiveClosedForms(Coupling coupling);

struct Conformity {
  double logConformity = 0;  // log ρ
  double deficit = 0;        // h = 1 - ρ e^{-u}
};

// The largest u = |x + y|² at which the coupled conformities are evaluated: e^{-u} must stay a
// normal double.
inline constexpr double kMaxConformityU = 700;

// ρ for dimension d and u = |x + y|², or why there is none: SimRF needs d >= 2; ORF and SimRF are
// evaluated for u <= kMaxConformityU.
Outcome<Conformity> positiveConformity(Coupling coupling, int dimension, double u);

// Σ_b m_b(m_b - 1) over ⌈M/d⌉ blocks of d features, the last one holding the remainder.
double coupledPairCount(std::int64_t features, int dimension);

// log Var (Gaussian kernel) of the M-feature PosRF estimator under the coupling; kNegativeInfinity
// when the variance is 0, NaN when unavailable.
double coupledPositiveLogVariance(Coupling coupling, int dimension, std::int64_t features,
                                  double diffNormSquared, double u);

// Small-v SimRF MSE relative to IID at M = d: 1 - (2/d)(Γ((d+1)/2)/Γ(d/2))² (0.0077817… at d = 64).
double simplexSmallVPrefactor(int dimension);

// Orthogonality gap of PosRF (SimRF eq. 25 with the 2^k of eq. 23 restored, as printed it lacks
// it): MSE_IID - MSE_ORF for m <= d features in one block, = K² (m-1)/m · h_ORF. Returned as a log.
double positiveOrthogonalityLogGap(int dimension, std::int64_t features, double diffNormSquared,
                                   double u);

// log p(w_ij) of w_ij = |w_i + w_j| for IID (eq. 18), ORF (χ_{2d}) and SimRF (eq. 20, quadrature).
double logPairNormDensity(Coupling coupling, int dimension, double w);

}  // namespace rfscope
