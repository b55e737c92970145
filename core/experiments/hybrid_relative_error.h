#pragma once
// HRF Lemma 3.4 and Thm 3.5: the maximal relative error ε = √MSE / SM over pairs on the sphere
// S(r), against r, for TrigRF, FAVOR+ (hyperbolic positive features) and the angular hybrid, with
// the closed form W(r)/√(2m) of Lemma 3.4 and the hybrid bound of Thm 3.5 (r ≥ 1). The maximum over
// the angle θ is taken on a grid of the exact relative errors. ε does not depend on d.

#include <cstdint>
#include <vector>

#include "core/experiments/computed_experiment.h"

namespace rfscope {

struct HybridRelativeErrorSettings {
  double rMin = 0.25, rMax = 2.5;
  std::vector<double> radii;
  std::vector<double> thetas;  // the grid over which the maximum is taken
  std::int64_t features = 128;
  std::int64_t n = 8;
};

// Per radius r: the largest relative error over the θ grid of TrigRF, FAVOR+ and the angular
// hybrid, Lemma 3.4's W(r)/√(2m) and Thm 3.5's hybrid bound.
struct HybridRelativeErrorResult {
  std::vector<double> radius, trig, favor, hybrid, lemma, bound;
};

class HybridRelativeError final
    : public ComputedExperiment<HybridRelativeErrorSettings, HybridRelativeErrorResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  HybridRelativeErrorSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<HybridRelativeErrorResult> compute(
      const HybridRelativeErrorSettings& settings,
      ResultContext<HybridRelativeErrorResult>& context) const override;
  Presentation present(const HybridRelativeErrorSettings& settings,
                       const HybridRelativeErrorResult& result) const override;
};

}  // namespace rfscope
