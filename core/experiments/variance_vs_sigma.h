#pragma once
// CRT Fig. 2: for each σ of a grid, draw P pairs (x, y) from a regime scaled by σ, evaluate the
// exact one-feature log-variance of each mechanism, and report its mean and standard deviation over
// pairs.

#include "core/experiments/experiment.h"

namespace rfscope {

class VarianceVsSigma final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
