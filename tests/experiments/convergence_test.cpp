#include "core/experiments/convergence.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "core/experiments/convergence_histogram.h"
#include "core/experiments/single_pair_estimator.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kLight{{"d", std::int64_t{16}},
                             {"sigma", 0.1},
                             {"trials", std::int64_t{40000}},
                             {"checkpoints", std::int64_t{20}}};

TEST(Convergence, LightTailsConvergeToTheClosedForm) {
  const RunResult result = runWith(Convergence(), kLight);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  EXPECT_GE(table.rowCount(), 15u);
  const auto& n = table.column("trials")->values;
  const auto& estimate = table.column("estimate")->values;
  const auto& low = table.column("low")->values;
  const auto& high = table.column("high")->values;
  for (std::size_t i = 1; i < n.size(); ++i)
    EXPECT_GT(n[i], n[i - 1]);
  EXPECT_EQ(n.back(), 40000.0);
  // The exact value (1 after scaling) lies in the final band, which is much narrower than the
  // band at 1/20 of the trials (1/√20 = 0.22 as wide in expectation; the early band's own
  // estimate is noisy, hence 0.5).
  EXPECT_LT(low.back(), 1.0);
  EXPECT_GT(high.back(), 1.0);
  EXPECT_NEAR(estimate.back(), 1.0, 0.05);
  std::size_t early = 0;
  while (n[early] < n.back() / 20)
    ++early;
  EXPECT_LT(high.back() - low.back(), 0.5 * (high[early] - low[early]));
  EXPECT_TRUE(table.hints.series.front().warning.empty());
  EXPECT_TRUE(result.warnings.empty());
}

TEST(Convergence, KernelEstimateConvergesToTheKernel) {
  test::Overrides values = kLight;
  values.push_back({"quantity", std::string("kernel")});
  values.push_back({"coupling", std::string("orf")});
  values.push_back({"features", std::int64_t{16}});
  const Table table = runWith(Convergence(), values).table;
  EXPECT_LT(table.column("low")->values.back(), 1.0);
  EXPECT_GT(table.column("high")->values.back(), 1.0);
  EXPECT_NEAR(table.column("estimate")->values.back(), 1.0, 3e-3);
}

TEST(Convergence, HeavyTailsAreFlagged) {
  // PosRF at σ = 1 in d = 64: Var = K² expm1(‖x+y‖²) with ‖x+y‖² ≈ 128; no sample gets near it.
  const RunResult result =
      runWith(Convergence(),
              {{"sigma", 1.0}, {"trials", std::int64_t{20000}}, {"checkpoints", std::int64_t{10}}});
  const Table& table = result.table;
  EXPECT_FALSE(table.hints.series.front().warning.empty());
  EXPECT_FALSE(result.warnings.empty());
  EXPECT_LT(table.column("estimate")->values.back(), 1e-3);
}

TEST(Convergence, RelativeQuantitiesAreTheVarianceScaledByTheKernelInLogs) {
  // Var/K² and √Var/K from the same trials: the logs differ from log Var by -2 log K and
  // (½ log Var - log K); relative to their exact values the running estimates are the same ratio
  // (Var/K²) or its square root (√Var/K).
  test::Overrides values = kLight;
  values.push_back({"quantity", std::string("variance")});
  const Table variance = runWith(Convergence(), values).table;
  values.back() = {"quantity", std::string("relative-variance")};
  const Table relative = runWith(Convergence(), values).table;
  values.back() = {"quantity", std::string("relative-rmse")};
  const Table rmse = runWith(Convergence(), values).table;
  ASSERT_EQ(variance.rowCount(), relative.rowCount());
  ASSERT_EQ(variance.rowCount(), rmse.rowCount());
  const auto& logVar = variance.column("log-estimate")->values;
  const auto& logRelative = relative.column("log-estimate")->values;
  const auto& logRmse = rmse.column("log-estimate")->values;
  // The same 2 log K (< 0: a Gaussian kernel below 1) at every row, and ½ of the relative
  // variance's log for the RMSE.
  const double twoLogK = logVar.front() - logRelative.front();
  EXPECT_LT(twoLogK, 0);
  for (std::size_t r = 0; r < logVar.size(); ++r) {
    EXPECT_NEAR(logVar[r] - logRelative[r], twoLogK, 1e-9) << r;
    EXPECT_NEAR(logRmse[r], 0.5 * logRelative[r], 1e-9) << r;
    EXPECT_NEAR(relative.column("estimate")->values[r], variance.column("estimate")->values[r],
                1e-9 * variance.column("estimate")->values[r]);
    EXPECT_NEAR(rmse.column("estimate")->values[r],
                std::sqrt(variance.column("estimate")->values[r]),
                1e-9 * rmse.column("estimate")->values[r]);
  }
  EXPECT_NE(relative.hints.title.find("relative variance"), std::string::npos);
  EXPECT_NE(rmse.hints.title.find("relative RMSE"), std::string::npos);
}

TEST(ConvergenceHistogram, DensityIntegratesToOneAndCentresOnTheKernel) {
  const ConvergenceHistogram experiment;
  const ParameterSet params = test::parametersWith(experiment, {{"d", std::int64_t{16}},
                                                                {"sigma", 0.1},
                                                                {"features", std::int64_t{16}},
                                                                {"trials", std::int64_t{20000}}});
  SilentRunContext context;
  const RunResult result = experiment.run(params, context);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  const auto& x = table.column("value")->values;
  const auto& density = table.column("density")->values;
  ASSERT_EQ(x.size(), 60u);
  double mass = 0, mean = 0;
  const double width = x[1] - x[0];
  for (std::size_t b = 0; b < x.size(); ++b) {
    mass += density[b] * width;
    mean += x[b] * density[b] * width;
  }
  EXPECT_NEAR(mass, 1.0, 1e-9);
  EXPECT_EQ(table.hints.xLabel, "K̂");  // light tails: linear bins
  // Unbiased: the histogram's mean (to half a bin) is the Gaussian kernel at the pair.
  const MonteCarloRequest request = singlePairRequest(params);
  const double kernel = std::exp(-0.5 * (request.x - request.y).squaredNorm());
  EXPECT_NEAR(mean, kernel, 0.01 * kernel + 0.5 * width);
}

}  // namespace
}  // namespace rfscope
