#pragma once
// SimRF Fig. 6: MSE_ORF / MSE_IID and MSE_SimRF / MSE_IID of positive random features against
// v = |x + y| (the ratio depends on the pair only through v), analytic curves with Monte Carlo
// points and 95% error bars. Couplings without a closed form (SimRF+, fast variants) get points
// only.

#include "core/experiments/experiment.h"

namespace rfscope {

class MseRatioVsV final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
