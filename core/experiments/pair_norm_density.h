#pragma once
// SimRF Fig. 5: the density p(w_ij) of w_ij = ‖ω_i + ω_j‖ within one coupled block, closed forms
// for IID (eq. 18), ORF (χ_2d) and SimRF (eq. 20) over Monte Carlo histograms (also SimRF+ and the
// fast structured couplings, which have no closed form).

#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/typed_experiment.h"

namespace rfscope {

struct PairNormDensitySettings {
  int dimension = 6;
  std::vector<Coupling> couplings;
  int bins = 60;
  std::int64_t blocks = 20000;  // 0: closed forms only
  std::uint64_t seed = 1;
};

class PairNormDensity final : public TypedExperiment<PairNormDensitySettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  PairNormDensitySettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  // Every partial table holds every bin: the histograms of the blocks so far.
  PartialTables partialTables() const override { return PartialTables::RefineRows; }

 protected:
  RunResult runWith(const PairNormDensitySettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
