#pragma once
// HRF Lemma 3.4 and Thm 3.5: the maximal relative error ε = √MSE / SM over pairs on the sphere
// S(r), against r, for TrigRF, FAVOR+ (hyperbolic positive features) and the angular hybrid, with
// the closed form W(r)/√(2m) of Lemma 3.4 and the hybrid bound of Thm 3.5 (r ≥ 1). The maximum over
// the angle θ is taken on a grid of the exact relative errors. ε does not depend on d.

#include "core/experiments/experiment.h"

namespace rfscope {

class HybridRelativeError final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
