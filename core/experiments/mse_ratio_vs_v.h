#pragma once
// SimRF Fig. 6: MSE_ORF / MSE_IID and MSE_SimRF / MSE_IID of positive random features against
// v = |x + y| (the ratio depends on the pair only through v), analytic curves with Monte Carlo
// points and 95% error bars. Couplings without a closed form (SimRF+, fast variants) get points
// only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/computed_experiment.h"

namespace rfscope {

struct MseRatioVsVSettings {
  int dimension = 64;
  std::int64_t features = 64;  // M (M = d where the parameter is 0)
  std::vector<Coupling> couplings;
  double vMin = 0.05, vMax = 3;
  std::vector<double> grid;         // v of the analytic curves
  std::vector<double> monteCarloV;  // v of the Monte Carlo points (evenly spread up to mc-v-max)
  std::int64_t trials = 20000;
  std::uint64_t seed = 1;
};

// One coupling's MSE over the i.i.d. MSE, per row (v) computed so far, NaN where the row has no
// value of that kind: the closed form on the analytic grid's rows (only where the coupling has
// one), the Monte Carlo ratio with its 95% interval on the Monte Carlo points' rows.
struct MseRatioCoupling {
  Coupling coupling = Coupling::Iid;
  bool closedForm = false;
  std::vector<double> analytic;               // empty without a closed form
  std::vector<double> monteCarlo, low, high;  // empty without Monte Carlo points
  std::size_t heavyPoints = 0;                // Monte Carlo points with heavy tails
};

struct MseRatioVsVResult {
  std::vector<double> v;  // the analytic grid merged with the Monte Carlo points, sorted
  std::vector<MseRatioCoupling> couplings;
  std::vector<std::string> failures;  // Monte Carlo points without a result: "orf: why"
};

class MseRatioVsV final : public ComputedExperiment<MseRatioVsVSettings, MseRatioVsVResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  MseRatioVsVSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  Computed<MseRatioVsVResult> compute(const MseRatioVsVSettings& settings,
                                      ResultContext<MseRatioVsVResult>& context) const override;
  Presentation present(const MseRatioVsVSettings& settings,
                       const MseRatioVsVResult& result) const override;
};

}  // namespace rfscope
