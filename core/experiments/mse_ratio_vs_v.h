#pragma once
// SimRF Fig. 6: MSE_ORF / MSE_IID and MSE_SimRF / MSE_IID of positive random features against
// v = |x + y| (the ratio depends on the pair only through v), analytic curves with Monte Carlo
// points and 95% error bars. Couplings without a closed form (SimRF+, fast variants) get points
// only.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/typed_experiment.h"

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

class MseRatioVsV final : public TypedExperiment<MseRatioVsVSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  MseRatioVsVSettings parse(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;

 protected:
  RunResult runWith(const MseRatioVsVSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
