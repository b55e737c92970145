#pragma once
// The number a Performer user wants: for a target relative output error of random-feature
// attention, the smallest number of features M per mechanism × coupling — predicted from one unit
// of features (output_error_prediction.h: the crossing of the predicted rms error, interpolated in
// log-log, ∝ 1/M beyond the grid; none where the prediction is not drawn) and measured by Monte
// Carlo on a grid of M (the crossing of the measured rms error — the statistic predicted; the rms
// linearised error for signed features — interpolated in log-log between
// the two grid points that bracket it). One row per mechanism × coupling, drawn as grouped bars.
// The inputs, estimators and grid are attention-error's (attention_error.h), whose result it reads.

#include "core/experiments/attention_error.h"

namespace rfscope {

// The features one estimator needs; NaN where there is no prediction, or the measured error
// never falls to the target on the grid.
struct FeaturesNeeded {
  double predicted = 0;
  double measured = 0;       // the crossing, log-log interpolated
  double measuredBelow = 0;  // the largest grid M with the rms error above the target
  double measuredAbove = 0;  // the smallest grid M with the rms error at or below it
  double errorAtLargest = 0;
};

struct AttentionFeaturesNeededResult {
  AttentionErrorResult errors;
  std::vector<FeaturesNeeded> needed;  // one per estimator of `errors`
};

class AttentionFeaturesNeeded final
    : public ComputedExperiment<AttentionErrorSettings, AttentionFeaturesNeededResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  AttentionErrorSettings parse(const ParameterSet& params) const override;
  Computed<AttentionFeaturesNeededResult> compute(
      const AttentionErrorSettings& settings,
      ResultContext<AttentionFeaturesNeededResult>& context) const override;
  Presentation present(const AttentionErrorSettings& settings,
                       const AttentionFeaturesNeededResult& result) const override;

 private:
  AttentionError errors_;
};

}  // namespace rfscope
