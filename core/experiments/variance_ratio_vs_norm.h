#pragma once
// CRT Fig. 1 (right): the utility μ = log(Var_OPRF / Var_PosRF) as a function of u = ‖x + y‖², one
// curve per dimension. K² cancels in the ratio, so μ depends on (d, u) only and is the same for the
// Gaussian and the softmax kernel.

#include <vector>

#include "core/experiments/computed_experiment.h"

namespace rfscope {

struct VarianceRatioVsNormSettings {
  std::vector<int> dimensions;  // one curve per d, as chosen
  double uMin = 0.01, uMax = 200;
  bool logSpacing = false;
  std::vector<double> grid;  // ‖x + y‖²
};

// μ per ‖x + y‖² computed so far, one curve per dimension of the settings.
struct VarianceRatioVsNormResult {
  std::vector<double> u;
  std::vector<std::vector<double>> mu;  // [dimension][row]
};

class VarianceRatioVsNorm final
    : public ComputedExperiment<VarianceRatioVsNormSettings, VarianceRatioVsNormResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  VarianceRatioVsNormSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

  Computed<VarianceRatioVsNormResult> compute(
      const VarianceRatioVsNormSettings& settings,
      ResultContext<VarianceRatioVsNormResult>& context) const override;
  Presentation present(const VarianceRatioVsNormSettings& settings,
                       const VarianceRatioVsNormResult& result) const override;
};

}  // namespace rfscope
