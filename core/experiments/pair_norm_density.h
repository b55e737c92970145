#pragma once
// SimRF Fig. 5: the density p(w_ij) of w_ij = ‖ω_i + ω_j‖ within one coupled block, closed forms
// for IID (eq. 18), ORF (χ_2d) and SimRF (eq. 20) over Monte Carlo histograms (also SimRF+ and the
// fast structured couplings, which have no closed form).

#include "core/experiments/experiment.h"

namespace rfscope {

class PairNormDensity final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
