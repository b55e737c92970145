#pragma once
// Teaching, companion of `convergence`: the histogram of the estimator's values K̂ over the trials
// (log K̂ bins when the values span decades), with the exact kernel value in the title. Heavy
// tails show as a long right tail that a few trials dominate.

#include "core/experiments/experiment.h"

namespace rfscope {

class ConvergenceHistogram final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
