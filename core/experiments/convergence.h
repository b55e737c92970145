#pragma once
// Teaching: the running Monte Carlo estimate of the kernel (mean of K̂) or of the estimator's
// variance, with its 95% band, as the number of trials grows, against the exact value. Light tails
// converge at 1/√n; heavy tails (e.g. PosRF at large σ) jump and stay off, and are flagged.

#include "core/experiments/experiment.h"

namespace rfscope {

class Convergence final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
