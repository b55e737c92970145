// The quantity variance-vs-sigma plots (issue: the plotted quantity is a choice wherever variance
// is plotted): log Var, the relative variance log(Var/K²) and the relative RMSE √Var/K, all from
// the same cells, and the teaching preset that shows PosRF's relative variance blowing up.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/experiments/preset.h"
#include "core/experiments/variance_vs_sigma.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

test::Overrides onePair(const std::string& quantity) {
  return {{"d", std::int64_t{8}},
          {"pairs", std::int64_t{1}},
          {"sigma-steps", std::int64_t{6}},
          {"mechanisms", std::vector<std::string>{"trig", "pos"}},
          {"quantity", quantity}};
}

TEST(PlottedQuantity, RelativeVarianceDividesEachPairsVarianceByItsKernelSquared) {
  // One pair (x, y) scaled by σ: log Var - log(Var/K²) = 2 log K = -σ²‖x - y‖² for the Gaussian
  // kernel, so the difference over σ² is the same at every σ and for every mechanism.
  const Table variance = runWith(VarianceVsSigma(), onePair("log-variance")).table;
  const Table relative = runWith(VarianceVsSigma(), onePair("log-relative-variance")).table;
  const auto& sigma = variance.column("sigma")->values;
  double expected = std::numeric_limits<double>::quiet_NaN();
  for (const char* id : {"trig", "pos"})
    for (std::size_t row = 0; row < sigma.size(); ++row) {
      const double difference = relative.column(std::string(id) + "-mean")->values[row] -
                                variance.column(std::string(id) + "-mean")->values[row];
      const double perSigmaSquared = difference / (sigma[row] * sigma[row]);
      EXPECT_GT(perSigmaSquared, 0) << id;
      if (std::isnan(expected)) expected = perSigmaSquared;
      EXPECT_NEAR(perSigmaSquared, expected, 1e-9 * expected) << id << " σ = " << sigma[row];
    }
  EXPECT_NE(relative.hints.yLabel.find("Var/K²"), std::string::npos);
  EXPECT_FALSE(relative.hints.yLog);
}

TEST(PlottedQuantity, RelativeRmseIsTheSquareRootOfTheRelativeVarianceOnALogAxis) {
  test::Overrides values = onePair("log-relative-variance");
  values[1] = {"pairs", std::int64_t{5}};
  const Table relative = runWith(VarianceVsSigma(), values).table;
  values.back() = {"quantity", std::string("relative-rmse")};
  const Table rmse = runWith(VarianceVsSigma(), values).table;
  EXPECT_TRUE(rmse.hints.yLog);
  for (const char* id : {"trig", "pos"})
    for (std::size_t row = 0; row < rmse.rowCount(); ++row) {
      const std::string key(id);
      const double meanLog = 0.5 * relative.column(key + "-mean")->values[row];
      const double stdLog = 0.5 * relative.column(key + "-std")->values[row];
      EXPECT_NEAR(std::log(rmse.column(key + "-mean")->values[row]), meanLog, 1e-9);
      EXPECT_NEAR(rmse.column(key + "-std")->values[row], stdLog, 1e-9);
      EXPECT_NEAR(std::log(rmse.column(key + "-low")->values[row]), meanLog - stdLog, 1e-9);
      EXPECT_NEAR(std::log(rmse.column(key + "-high")->values[row]), meanLog + stdLog, 1e-9);
    }
}

TEST(PlottedQuantity, PositiveFeaturesBlowUpPresetShowsItsClaimInRelativeVariance) {
  // "PosRF's relative variance explodes while OPRF keeps it bounded": at the largest σ PosRF's
  // mean log(Var/K²) lies far above OPRF's, and far above its own value at the smallest σ.
  const Preset& preset = *findPreset("teach-positive-features-blow-up");
  const VarianceVsSigma experiment;
  std::vector<ParameterError> errors;
  const ParameterSet params = presetParameters(preset, experiment, errors);
  ASSERT_TRUE(errors.empty());
  EXPECT_EQ(params.choice("quantity"), "log-relative-variance");
  SilentRunContext context;
  const Table table = experiment.run(params, context).table;
  const auto& pos = table.column("pos-mean")->values;
  const auto& oprf = table.column("oprf-mean")->values;
  EXPECT_GT(pos.back(), oprf.back() + 5);
  EXPECT_GT(pos.back(), pos.front() + 5);
  EXPECT_LT(oprf.back(), pos.back() / 2);
}

}  // namespace
}  // namespace rfscope
