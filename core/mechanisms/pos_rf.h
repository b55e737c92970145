#pragma once
// PosRF (FAVOR+): f(ω, x) = exp(ωᵀx - |x|²), ω ~ N(0, I).
// Var = exp(4xᵀy) - K² = K² expm1(|x + y|²), evaluated in logs.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class PosRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
};

}  // namespace rfscope
