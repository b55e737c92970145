#pragma once
// PoisRF (CRT Thm 3.4): Poisson-distributed ω_l; parameter λ, by default the optimum λ*.
// Formulas and their stable forms: discrete_rf.h.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class PoisRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
};

}  // namespace rfscope
