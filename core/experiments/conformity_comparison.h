#pragma once
// SimRF Fig. 4: the RF-conformity ρ (SimRF eq. 12) of d vectors with ONE fixed draw of χ_d norms,
// arranged i.i.d. (mean ± std over random arrangements), orthogonally, as a simplex, by SimRF+
// (eq. 17) and by a numerical minimisation of ρ itself, against v = ‖x + y‖ (the paper: d = 6,
// v = 1).

#include "core/experiments/experiment.h"

namespace rfscope {

class ConformityComparison final : public Experiment {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  RunResult run(const ParameterSet& params, RunContext& context) const override;
};

}  // namespace rfscope
