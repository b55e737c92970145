#pragma once
// Teaching, companion of `convergence`: the histogram of the estimator's values K̂ over the trials
// (log K̂ bins when the values span decades), with the exact kernel value in the title. Heavy
// tails show as a long right tail that a few trials dominate.

#include <cstdint>
#include <optional>
#include <string>

#include "core/experiments/computed_experiment.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct ConvergenceHistogramSettings {
  MonteCarloRequest request;  // the estimator at its pair, with the bins and the stored trials
};

// The Monte Carlo run with its histogram of the stored trials (those so far in a partial result),
// or why there is none.
struct ConvergenceHistogramResult {
  std::optional<MonteCarloResult> run;
  std::string failure;  // without a run
};

class ConvergenceHistogram final
    : public ComputedExperiment<ConvergenceHistogramSettings, ConvergenceHistogramResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ConvergenceHistogramSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  // Every partial table is the histogram of the trials so far.
  PartialTables partialTables() const override { return PartialTables::RefineRows; }

  Computed<ConvergenceHistogramResult> compute(
      const ConvergenceHistogramSettings& settings,
      ResultContext<ConvergenceHistogramResult>& context) const override;
  Presentation present(const ConvergenceHistogramSettings& settings,
                       const ConvergenceHistogramResult& result) const override;
};

}  // namespace rfscope
