#pragma once
// Hyperbolic positive random features (the antithetic pair of FAVOR+ used by HRF, Lemma 2.2): per
// ω, the features e^{-|x|²/2}(e^{ωᵀx}, e^{-ωᵀx})/√2, so K̂ = e^{-|x|²-|y|²} cosh(ωᵀ(x+y)). With u =
// |x+y|²:  Var = ½ e^{4xᵀy}(1 - e^{-u})² = ½ K² e^{-u} expm1(u)².

#include "core/mechanisms/mechanism.h"

namespace rfscope {

// log Var of one feature pair (Gaussian kernel), given |x - y|² and |x + y|².
double posHypLogVariance(double diffNormSquared, double sumNormSquared);

class PosHypRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
};

}  // namespace rfscope
