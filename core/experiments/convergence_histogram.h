#pragma once
// Teaching, companion of `convergence`: the histogram of the estimator's values K̂ over the trials
// (log K̂ bins when the values span decades), with the exact kernel value in the title. Heavy
// tails show as a long right tail that a few trials dominate.

#include <cstdint>

#include "core/experiments/typed_experiment.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct ConvergenceHistogramSettings {
  MonteCarloRequest request;  // the estimator at its pair, with the bins and the stored trials
};

class ConvergenceHistogram final : public TypedExperiment<ConvergenceHistogramSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ConvergenceHistogramSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  // Every partial table is the histogram of the trials so far.
  PartialTables partialTables() const override { return PartialTables::RefineRows; }

 protected:
  RunResult runWith(const ConvergenceHistogramSettings& settings,
                    RunContext& context) const override;
};

}  // namespace rfscope
