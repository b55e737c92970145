#pragma once
// What the two bipolar hybrids of HRF (Choromanski et al. 2022) share: per feature,
//   K̂ = λ̂ K̂_pos-hyp(ω) + (1 - λ̂) K̂_trig(ω'),  ω' = ω when the base estimators share frequencies,
// with λ̂ from n Gaussian τ's, independent of ω, ω':
//   angular:   λ̂ = (1/n) Σ_k (1 - a_k(x) a_k(y))/2,        a_k(z) = sgn(τ_kᵀz) (+1 for τ_kᵀz > 0)
//   Gaussian:  λ̂ = 1 - (1/n) Σ_k cos(τ_kᵀ(x - y)/b)
//            = 1 - (1/n) Σ_k (c_k(x) c_k(y) + s_k(x) s_k(y)),  c_k, s_k = cos, sin(τ_kᵀz/b).
// Their Monte Carlo trial (hybridTrialModel) and their feature map (drawHybridFeatureMap).
//
// Feature map: λ̂ is linear in products of per-point features, so each feature of the hybrid is a
// sum of products of per-point features — HRF's tensor-product construction. With the pos-hyp
// pair P(z) = e^{-|z|²}(e^{ωᵀz}, e^{-ωᵀz})/√2 (P(x)·P(y) = K̂_pos-hyp) and T(z) = (cos ω'ᵀz,
// sin ω'ᵀz) (T(x)·T(y) = K̂_trig):
//   angular:   K̂ = ½ P·P' - (1/2n) Σ_k (a_k P)·(a_k P)' + ½ T·T' + (1/2n) Σ_k (a_k T)·(a_k T)'
//              columns [P/√2 | ∓a_k P/√(2n) | T/√2 | a_k T/√(2n)]: width 4 + 4n per feature;
//   Gaussian:  K̂ = P·P' - (1/n) Σ_k [(c_k P)·(c_k P)' + (s_k P)·(s_k P)']
//                       + (1/n) Σ_k [(c_k T)·(c_k T)' + (s_k T)·(s_k T)']
//              columns [P | ∓c_k P/√n, ∓s_k P/√n | c_k T/√n, s_k T/√n]: width 2 + 8n per feature;
// the minus signs on queries only (keys carry +). Randomness per feature, in the order of the full
// Monte Carlo path: τ_1..τ_n, ω, then ω' unless shared (i.i.d. normals, d each).

#include <memory>

#include "core/couplings/coupling.h"
#include "core/math/outcome.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/trial_model.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// The Monte Carlo trial at the pair (x, y) with resolved parameters (n, shared, and the bandwidth
// b of the Gaussian coefficient), or why there is none (a coupling other than iid, n < 1, b <= 0).
Outcome<TrialModel> hybridTrialModel(HybridCoefficient coefficient, Coupling coupling,
                                     const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                     const ParameterSet& resolved);

// One draw of the feature map (see above), or why there is none (as for the trial).
Outcome<std::unique_ptr<FeatureMap>> drawHybridFeatureMap(HybridCoefficient coefficient,
                                                          const FeatureMapSpec& spec,
                                                          TrialStream& stream);

}  // namespace rfscope
