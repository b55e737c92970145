#pragma once
// The number a Performer user wants: for a target relative output error of random-feature
// attention, the smallest number of features M per mechanism × coupling — predicted by the delta
// method (i.i.d. features: the error falls like 1/√M, so M = M₁·ε₁²/target²) and measured by Monte
// Carlo on a grid of M (the crossing of the measured mean error, interpolated in log-log between
// the two grid points that bracket it). One row per mechanism × coupling, drawn as grouped bars.
// The inputs, estimators and grid are attention-error's (attention_error.h), which runs underneath.

#include "core/experiments/experiment.h"

namespace rfscope {

class AttentionFeaturesNeeded final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
  ParameterSet testParameters(TestLoad load) const override;
};

}  // namespace rfscope
