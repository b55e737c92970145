#pragma once
// TrigRF (random Fourier features, RKS/FAVOR): f1 = exp(iωᵀx), f2 = exp(-iωᵀy), ω ~ N(0, I);
// the estimator Re f1 f2 = cos ωᵀ(x - y), i.e. the sin/cos feature pair of one ω.
// Var = ½ (1 - K²)², evaluated as log ½ + 2 log(-expm1(-|x - y|²)) — exact when x ≈ y.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class TrigRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
};

}  // namespace rfscope
