#pragma once
// GeomRF (CRT Thm 3.5): geometric ω_l on {0, 1, …}; parameter p, by default the numerical optimum
// p*. Formulas and their stable forms: discrete_rf.h.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class GeomRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
};

}  // namespace rfscope
