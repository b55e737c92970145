#pragma once
// Bias, variance and mean squared error of kernel estimators at one pair against the number of
// features M, one series per mechanism × coupling: for unbiased estimators the MSE is the variance
// and falls as 1/M, for a biased one (orf-fixed-norm, whose mean is a Bessel kernel) the variance
// about its own mean still falls but the MSE levels off at bias². Closed forms where there are
// some, Monte Carlo points (MSE = sample variance + (sample mean - K)²) beside them.

#include <cstdint>
#include <string>
#include <vector>

#include "core/experiments/computed_experiment.h"
#include "core/experiments/estimator_series.h"

namespace rfscope {

class Mechanism;

struct BiasVarianceVsFeaturesSettings {
  int dimension = 4;
  double distance = 1;  // ‖x - y‖; the pair is x = -y = (‖x - y‖/2) e₁
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  std::vector<std::int64_t> features;  // M, log-spaced and rounded
  std::int64_t trials = 0;             // Monte Carlo trials per point; 0: closed forms only
  std::uint64_t seed = 1;
};

// One estimator's values per row (M) computed so far; NaN where there is none.
struct BiasVarianceSeries {
  EstimatorSeries series;
  bool biased = false;                       // its closed form carries a bias (known after row 0)
  std::vector<double> variance, bias2;       // closed forms: Var about the estimator's mean, bias²
  std::vector<double> mse;                   // Var + bias²
  std::vector<double> mcMse, mcLow, mcHigh;  // Monte Carlo MSE and its 95% interval
};

struct BiasVarianceVsFeaturesResult {
  std::vector<double> features;
  std::vector<BiasVarianceSeries> estimators;
  std::vector<std::pair<std::string, std::string>> notes;  // (estimator, why no closed form)
};

class BiasVarianceVsFeatures final
    : public ComputedExperiment<BiasVarianceVsFeaturesSettings, BiasVarianceVsFeaturesResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  BiasVarianceVsFeaturesSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<BiasVarianceVsFeaturesResult> compute(
      const BiasVarianceVsFeaturesSettings& settings,
      ResultContext<BiasVarianceVsFeaturesResult>& context) const override;
  Presentation present(const BiasVarianceVsFeaturesSettings& settings,
                       const BiasVarianceVsFeaturesResult& result) const override;
};

}  // namespace rfscope
