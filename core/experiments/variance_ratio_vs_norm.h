#pragma once
// CRT Fig. 1 (right): the utility μ = log(Var_OPRF / Var_PosRF) as a function of u = ‖x + y‖², one
// curve per dimension. K² cancels in the ratio, so μ depends on (d, u) only and is the same for the
// Gaussian and the softmax kernel.

#include <string>
#include <vector>

#include "core/experiments/typed_experiment.h"

namespace rfscope {

struct VarianceRatioVsNormSettings {
  std::vector<std::string> dimensions;  // as chosen ("16", "32", …): column keys and labels
  double uMin = 0.01, uMax = 200;
  bool logSpacing = false;
  std::vector<double> grid;  // ‖x + y‖²
};

class VarianceRatioVsNorm final : public TypedExperiment<VarianceRatioVsNormSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  VarianceRatioVsNormSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

 protected:
  RunResult runWith(const VarianceRatioVsNormSettings& settings,
                    RunContext& context) const override;
};

}  // namespace rfscope
