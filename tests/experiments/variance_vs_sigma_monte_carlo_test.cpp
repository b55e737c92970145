#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "core/experiments/variance_vs_sigma.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kBoth{{"d", std::int64_t{16}},
                            {"sigma-min", 0.05},
                            {"sigma-max", 0.25},
                            {"sigma-steps", std::int64_t{3}},
                            {"pairs", std::int64_t{6}},
                            {"mechanisms", std::vector<std::string>{"trig", "pos", "oprf"}},
                            {"method", std::string("both")},
                            {"trials", std::int64_t{4000}}};

TEST(VarianceVsSigmaMonteCarlo, MonteCarloSitsOnTheClosedFormsForLightTails) {
  const RunResult result = runWith(VarianceVsSigma(), kBoth);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 3u);
  ASSERT_EQ(table.hints.series.size(), 6u);
  EXPECT_EQ(table.hints.series[3].style, SeriesStyle::Points);
  for (const std::string id : {"trig", "pos", "oprf"}) {
    const auto& exact = table.column(id + "-mean")->values;
    const auto& mc = table.column(id + "-mc-mean")->values;
    for (std::size_t i = 0; i < exact.size(); ++i)
      EXPECT_NEAR(mc[i], exact[i], 0.15) << id << " row " << i;  // log scale: ±15%
  }
}

TEST(VarianceVsSigmaMonteCarlo, CouplingsWithoutClosedFormGetMonteCarloOnly) {
  test::Overrides values = kBoth;
  values.push_back({"coupling", std::string("orf")});
  values.push_back({"features", std::int64_t{16}});
  const RunResult result = runWith(VarianceVsSigma(), values);
  const Table& table = result.table;
  // PosRF (SimRF eq. 11) and TrigRF (eq. 26) have ORF closed forms; OPRF does not.
  for (double v : table.column("oprf-mean")->values)
    EXPECT_TRUE(std::isnan(v));
  EXPECT_FALSE(result.warnings.empty());
  for (double v : table.column("oprf-mc-mean")->values)
    EXPECT_TRUE(std::isfinite(v));
  for (const std::string id : {"pos", "trig"}) {
    const auto& exact = table.column(id + "-mean")->values;
    const auto& mc = table.column(id + "-mc-mean")->values;
    for (std::size_t i = 0; i < exact.size(); ++i)
      EXPECT_NEAR(mc[i], exact[i], 0.15) << id << " row " << i;
  }
}

TEST(VarianceVsSigmaMonteCarlo, HeavyTailsAreFlagged) {
  const RunResult result =
      runWith(VarianceVsSigma(), {{"sigma-min", 0.9},
                                  {"sigma-max", 1.0},
                                  {"sigma-steps", std::int64_t{2}},
                                  {"pairs", std::int64_t{3}},
                                  {"mechanisms", std::vector<std::string>{"pos"}},
                                  {"method", std::string("monte-carlo")},
                                  {"trials", std::int64_t{2000}}});
  EXPECT_FALSE(result.table.hints.series.front().warning.empty());
  EXPECT_FALSE(result.warnings.empty());
}

}  // namespace
}  // namespace rfscope
