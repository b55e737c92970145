#pragma once
// HRF Fig. 2: Monte Carlo estimates of the softmax kernel SM(x, y) = exp(xᵀy) for same-length
// inputs of radius r against their angle θ: the true value, the 5th–95th percentile band of the
// estimates and the relative error √MSE / SM (empirical points over the exact curve) for TrigRF,
// FAVOR+ and the angular hybrid at a comparable feature budget.

#include <cstdint>
#include <vector>

#include <string>

#include "core/experiments/computed_experiment.h"

namespace rfscope {

class Mechanism;

struct PointwiseSoftmaxSettings {
  // One estimator of the softmax kernel: its mechanism, features and parameters (n, bandwidth).
  struct Estimator {
    const Mechanism* mechanism = nullptr;
    std::int64_t features = 0;
    ParameterSet parameters;
  };
  int dimension = 64;
  double r = 1;
  std::vector<double> thetas;
  std::vector<Estimator> estimators;
  std::int64_t trials = 10000;
  std::uint64_t seed = 1;
};

// One estimator per θ: the median and 5th/95th percentiles of its Monte Carlo estimates, the
// relative error √MSE / SM measured and exact, and whether the run showed heavy tails (1 or 0).
struct PointwiseEstimates {
  std::vector<double> median, q05, q95, errorMc, error, heavyTail;
};

struct PointwiseSoftmaxResult {
  std::vector<double> theta, truth;  // θ and SM(x, y) = exp(r² cos θ)
  std::vector<PointwiseEstimates> estimators;
  // Monte Carlo runs without a result (their row's values are NaN), in row order.
  struct Failure {
    std::size_t estimator;
    std::string reason;
  };
  std::vector<Failure> failures;
};

class PointwiseSoftmax final
    : public ComputedExperiment<PointwiseSoftmaxSettings, PointwiseSoftmaxResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  PointwiseSoftmaxSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<PointwiseSoftmaxResult> compute(
      const PointwiseSoftmaxSettings& settings,
      ResultContext<PointwiseSoftmaxResult>& context) const override;
  Presentation present(const PointwiseSoftmaxSettings& settings,
                       const PointwiseSoftmaxResult& result) const override;
};

}  // namespace rfscope
