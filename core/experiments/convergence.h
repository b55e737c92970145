#pragma once
// Teaching: the running Monte Carlo estimate of the kernel (mean of K̂) or of the estimator's
// variance, with its 95% band, as the number of trials grows, against the exact value. Light tails
// converge at 1/√n; heavy tails (e.g. PosRF at large σ) jump and stay off, and are flagged.

#include "core/experiments/typed_experiment.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct ConvergenceSettings {
  // The variance of K̂, the relative variance Var/K², the relative RMSE √Var/K (all in logs),
  // or the kernel value itself.
  enum class Quantity { Variance, RelativeVariance, RelativeRmse, Kernel };
  MonteCarloRequest request;  // the estimator at its pair, the trials and the seed
  Quantity quantity = Quantity::Variance;
  int checkpoints = 80;
};

class Convergence final : public TypedExperiment<ConvergenceSettings> {
 public:
  using Quantity = ConvergenceSettings::Quantity;

  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ConvergenceSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

 protected:
  RunResult runWith(const ConvergenceSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
