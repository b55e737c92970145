#pragma once
// HRF Fig. 2: Monte Carlo estimates of the softmax kernel SM(x, y) = exp(xᵀy) for same-length
// inputs of radius r against their angle θ: the true value, the 5th–95th percentile band of the
// estimates and the relative error √MSE / SM (empirical points over the exact curve) for TrigRF,
// FAVOR+ and the angular hybrid at a comparable feature budget.

#include <cstdint>
#include <vector>

#include "core/experiments/typed_experiment.h"

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

class PointwiseSoftmax final : public TypedExperiment<PointwiseSoftmaxSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  PointwiseSoftmaxSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

 protected:
  RunResult runWith(const PointwiseSoftmaxSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
