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
#include <variant>
#include <vector>

#include "core/experiments/computed_experiment.h"

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

// The two feature kinds at the same budget D, in this order.
enum class FourierFeatureKind { SinCos, RandomPhase };

// toy: on the grid x, the truth and the posterior mean and sd of f(x): exact, then per kind.
struct ToyRegressionResult {
  struct Posterior {
    std::vector<double> mean, sd;
  };
  std::vector<double> x, truth;
  std::vector<double> trainX, trainY;  // the noisy training points, in increasing x
  Posterior exact;
  std::vector<Posterior> kinds;
};

// abalone: per budget D, the exact GP's test RMSE and per kind the mean, std and standard error
// of the mean of the RMSE over the draws.
struct AbaloneRegressionResult {
  std::int64_t trainPoints = 0;
  struct Rmse {
    std::vector<double> mean, spread, standardError;
  };
  std::vector<double> features, exact;
  std::vector<Rmse> kinds;
};

using RffRegressionResult = std::variant<ToyRegressionResult, AbaloneRegressionResult>;

class RffRegression final : public ComputedExperiment<RffRegressionSettings, RffRegressionResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RffRegressionSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<RffRegressionResult> compute(const RffRegressionSettings& settings,
                                        ResultContext<RffRegressionResult>& context) const override;
  Presentation present(const RffRegressionSettings& settings,
                       const RffRegressionResult& result) const override;
};

}  // namespace rfscope
