#pragma once
// Teaching: the running Monte Carlo estimate of the kernel (mean of K̂) or of the estimator's
// variance, with its 95% band, as the number of trials grows, against the exact value. Light tails
// converge at 1/√n; heavy tails (e.g. PosRF at large σ) jump and stay off, and are flagged.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/experiments/computed_experiment.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct ConvergenceSettings {
  // The variance of K̂, the relative variance Var/K², the relative RMSE √Var/K (all in logs),
  // or the kernel value itself.
  enum class Quantity { Variance, RelativeVariance, RelativeRmse, Kernel };
  MonteCarloRequest request;  // the estimator at its pair, the trials and the seed
  Quantity quantity = Quantity::Variance;
  // The trial counts, in leaves, at which the estimate is shown: about `checkpoints` log-spaced
  // values up to all the trials, increasing.
  std::vector<std::int64_t> checkpointLeaves;
};

// The running estimate at each checkpoint reached so far.
struct ConvergenceResult {
  // The exact value's log, in the quantity's units (a·log Var + b, or log K); NaN where there is
  // no closed form. Where there is one, estimates and bands are relative to it.
  double logExact = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> trials, estimate, low, high, logEstimate;
  // Heavy tails at the latest checkpoint, and why.
  bool heavyTail = false;
  std::vector<std::string> heavyTailReasons;
};

class Convergence final : public ComputedExperiment<ConvergenceSettings, ConvergenceResult> {
 public:
  using Quantity = ConvergenceSettings::Quantity;

  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ConvergenceSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<ConvergenceResult> compute(const ConvergenceSettings& settings,
                                      ResultContext<ConvergenceResult>& context) const override;
  Presentation present(const ConvergenceSettings& settings,
                       const ConvergenceResult& result) const override;
};

}  // namespace rfscope
