#pragma once
// HRF Fig. 2: Monte Carlo estimates of the softmax kernel SM(x, y) = exp(xᵀy) for same-length
// inputs of radius r against their angle θ: the true value, the 5th–95th percentile band of the
// estimates and the relative error √MSE / SM (empirical points over the exact curve) for TrigRF,
// FAVOR+ and the angular hybrid at a comparable feature budget.

#include "core/experiments/experiment.h"

namespace rfscope {

class PointwiseSoftmax final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
