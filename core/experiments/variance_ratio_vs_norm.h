#pragma once
// CRT Fig. 1 (right): the utility μ = log(Var_OPRF / Var_PosRF) as a function of u = ‖x + y‖², one
// curve per dimension. K² cancels in the ratio, so μ depends on (d, u) only and is the same for the
// Gaussian and the softmax kernel.

#include "core/experiments/experiment.h"

namespace rfscope {

class VarianceRatioVsNorm final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
