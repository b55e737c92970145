#pragma once
// SimRF Fig. 4: the RF-conformity ρ (SimRF eq. 12) of d vectors with ONE fixed draw of χ_d norms,
// arranged i.i.d. (mean ± std over random arrangements), orthogonally, as a simplex, by SimRF+
// (eq. 17) and by a numerical minimisation of ρ itself, against v = ‖x + y‖ (the paper: d = 6,
// v = 1).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/experiments/computed_experiment.h"

namespace rfscope {

struct ConformityComparisonSettings {
  int dimension = 6;
  std::uint64_t seed = 1;
  std::vector<double> vs;
  std::int64_t vSteps = 8;
  double vMin = 0.25, vMax = 2;
  std::size_t iidArrangements = 100;
  bool optimizeRequested = true;  // as asked
  bool optimize = true;           // as done: d ≤ kMaxOptimizedDimension only
  int restarts = 4;
};

// Per v: the conformity of the i.i.d. arrangements (mean and std), of the orthogonal, simplex and
// SimRF+ arrangements and the best the optimiser found (NaN when it did not run).
struct ConformityComparisonResult {
  std::vector<double> v, iidMean, iidStd, orthogonal, simplex, simplexPlus, optimized;
};

class ConformityComparison final
    : public ComputedExperiment<ConformityComparisonSettings, ConformityComparisonResult> {
 public:
  static constexpr int kMaxOptimizedDimension = 16;

  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ConformityComparisonSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<ConformityComparisonResult> compute(
      const ConformityComparisonSettings& settings,
      ResultContext<ConformityComparisonResult>& context) const override;
  Presentation present(const ConformityComparisonSettings& settings,
                       const ConformityComparisonResult& result) const override;
};

}  // namespace rfscope
