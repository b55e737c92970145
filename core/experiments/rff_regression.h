#pragma once
// The RFF blog's weight-space view: Gaussian-process regression with the Gaussian kernel, exactly
// (function space: K + ν²I solved over the training points) and with D random Fourier features
// (weight space: Bayesian linear regression on φ(x), a D × D system), for two feature kinds at
// the same budget D: sin/cos pairs [cos ωᵀx, sin ωᵀx]·√(2/D) with D/2 frequencies, and random
// phases √(2/D) cos(ωᵀx + b) with D frequencies and b ~ U[0, 2π).
//
// task = toy: a 1-D teaching set (20 noisy points of sin(1.5x)); the posterior mean ± 2 sd of the
// latent function on a grid, exact beside one draw of each feature kind.
// task = abalone: test RMSE (in rings) of the posterior mean against D, mean over draws with the
// std of the mean, beside the exact GP's; inputs standardised with training statistics.

#include <cstdint>
#include <vector>

#include "core/experiments/typed_experiment.h"

namespace rfscope {

enum class RegressionTask { Toy, Abalone };

struct RffRegressionSettings {
  RegressionTask task = RegressionTask::Toy;
  double sigma = 1;    // inputs σx: kernel exp(-σ²|x - y|²/2)
  double noise = 0.1;  // noise sd, in units of the target's sd
  std::int64_t bandFeatures = 10;
  std::vector<std::int64_t> features;  // budgets D (even)
  std::int64_t trainPoints = 1000;
  double trainFraction = 0.9;
  std::size_t repeats = 10;
  std::uint64_t seed = 1;
};

class RffRegression final : public TypedExperiment<RffRegressionSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RffRegressionSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

 protected:
  RunResult runWith(const RffRegressionSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
