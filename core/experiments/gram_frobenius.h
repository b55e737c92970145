#pragma once
// SimRF Fig. 7: squared Frobenius error Σ_ij (K_ij - K̂_ij)² of the Gaussian Gram matrix of N
// points estimated with M positive random features, against M, per coupling (mean over
// repetitions with the standard deviation of that mean, as in the paper's shading).

#include "core/experiments/experiment.h"

namespace rfscope {

class GramFrobenius final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
