#pragma once
// SimRF Fig. 5: the density p(w_ij) of w_ij = ‖ω_i + ω_j‖ within one coupled block, closed forms
// for IID (eq. 18), ORF (χ_2d) and SimRF (eq. 20) over Monte Carlo histograms (also SimRF+ and the
// fast structured couplings, which have no closed form).

#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/computed_experiment.h"

namespace rfscope {

struct PairNormDensitySettings {
  int dimension = 6;
  std::vector<Coupling> couplings;
  int bins = 60;
  std::int64_t blocks = 20000;  // 0: closed forms only
  std::uint64_t seed = 1;
};

// One coupling's densities at the rows' w: the closed form (where the coupling has one) and the
// histogram of the blocks sampled so far, at the bin centres' rows (NaN elsewhere).
struct PairNormCoupling {
  Coupling coupling = Coupling::Iid;
  bool closedForm = false;
  std::vector<double> density;    // empty without a closed form
  std::vector<double> histogram;  // empty before sampling starts
};

struct PairNormDensityResult {
  // A fine grid for the closed forms merged with the centres of the histogram's bins that hold
  // visible mass, sorted.
  std::vector<double> w;
  std::vector<PairNormCoupling> couplings;
  bool sampled = false;  // the histograms were started (blocks > 0, not cancelled before)
};

class PairNormDensity final
    : public ComputedExperiment<PairNormDensitySettings, PairNormDensityResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  PairNormDensitySettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  // Every partial table holds every bin: the histograms of the blocks so far.
  PartialTables partialTables() const override { return PartialTables::RefineRows; }

  Computed<PairNormDensityResult> compute(
      const PairNormDensitySettings& settings,
      ResultContext<PairNormDensityResult>& context) const override;
  Presentation present(const PairNormDensitySettings& settings,
                       const PairNormDensityResult& result) const override;
};

}  // namespace rfscope
