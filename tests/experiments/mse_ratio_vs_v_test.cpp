#include "core/experiments/mse_ratio_vs_v.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "core/couplings/positive_conformity.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kSmallRatioSweep{{"d", std::int64_t{16}},
                                       {"v-steps", std::int64_t{20}},
                                       {"mc-points", std::int64_t{3}},
                                       {"trials", std::int64_t{4000}}};

TEST(MseRatioVsV, TableHasAnalyticRowsAndMonteCarloPoints) {
  const RunResult result = runWith(MseRatioVsV(), kSmallRatioSweep);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  EXPECT_EQ(table.rowCount(), 23u);
  EXPECT_EQ(table.hints.series.size(), 4u);
  const auto& v = table.column("v")->values;
  for (std::size_t i = 1; i < v.size(); ++i)
    EXPECT_LE(v[i - 1], v[i]);
  int points = 0;
  for (double x : table.column("mc-simrf")->values)
    points += std::isfinite(x);
  EXPECT_EQ(points, 3);
}

TEST(MseRatioVsV, SimplexBeatsOrthogonalBeatsIidAndReachesThePapersPrefactor) {
  const RunResult result =
      runWith(MseRatioVsV(), {{"v-min", 0.001}, {"v-max", 3.0}, {"mc-points", std::int64_t{0}}});
  const auto& orf = result.table.column("ratio-orf")->values;
  const auto& simrf = result.table.column("ratio-simrf")->values;
  for (std::size_t i = 0; i < orf.size(); ++i) {
    EXPECT_LT(simrf[i], orf[i]) << i;
    EXPECT_LT(orf[i], 1.0) << i;
  }
  // SimRF Sec. 5.1: MSE_SimRF / MSE_IID → 0.0078 as v → 0 at d = 64.
  EXPECT_NEAR(simrf.front(), 0.0077817464, 1e-5);
  EXPECT_NEAR(simrf.front(), simplexSmallVPrefactor(64), 1e-5);
  // The gain shrinks as v grows (Fig. 6).
  EXPECT_GT(simrf.back(), simrf.front());
}

TEST(MseRatioVsV, MonteCarloPointsAgreeWithTheClosedForms) {
  const RunResult result = runWith(MseRatioVsV(), kSmallRatioSweep);
  const Table& table = result.table;
  const auto& v = table.column("v")->values;
  for (const char* id : {"orf", "simrf"}) {
    const std::string key = std::string("mc-") + id;
    const auto& mc = table.column(key)->values;
    const auto& low = table.column(key + "-low")->values;
    const auto& high = table.column(key + "-high")->values;
    for (std::size_t r = 0; r < v.size(); ++r) {
      if (!std::isfinite(mc[r])) continue;
      const double exact =
          std::exp(coupledPositiveLogVariance(parseCoupling(id), 16, 16, 0, v[r] * v[r]) -
                   coupledPositiveLogVariance(Coupling::Iid, 16, 16, 0, v[r] * v[r]));
      EXPECT_LT(low[r], mc[r]);
      EXPECT_GT(high[r], mc[r]);
      // Inside the 95% interval widened by half its width on each side (about 4 standard errors).
      const double slack = 0.5 * (high[r] - low[r]);
      EXPECT_GT(exact, low[r] - slack) << key << " v = " << v[r];
      EXPECT_LT(exact, high[r] + slack) << key << " v = " << v[r];
    }
  }
}

}  // namespace
}  // namespace rfscope
