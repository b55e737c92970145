#include "core/experiments/conformity_comparison.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

TEST(ConformityComparison, ReproducesTheOrderingOfFigure4) {
  // SimRF Fig. 4: d = 6, v = 1, one draw of norms. Lower is better.
  const RunResult result =
      runWith(ConformityComparison(), {{"v-min", 1.0}, {"v-steps", std::int64_t{1}}});
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 1u);
  EXPECT_EQ(table.hints.series.size(), 5u);
  const auto at = [&](const char* key) { return table.column(key)->values.front(); };
  EXPECT_GT(at("iid-mean"), at("orf"));
  EXPECT_GT(at("orf"), at("simrf"));
  EXPECT_GT(at("simrf"), at("simrf-plus"));
  EXPECT_LE(at("optimized"), at("simrf-plus"));
  // "Any improvements above SimRFs using weight-dependent geometrical coupling are marginal".
  EXPECT_LT((at("simrf") - at("optimized")) / (at("iid-mean") - at("simrf")), 0.5);
  EXPECT_GT(at("iid-std"), 0.0);
}

TEST(ConformityComparison, ConformityGrowsWithVAndIsOneAtZero) {
  const Table table = runWith(ConformityComparison(), {{"v-min", 1e-3},
                                                       {"v-max", 2.0},
                                                       {"v-steps", std::int64_t{5}},
                                                       {"restarts", std::int64_t{1}}})
                          .table;
  for (const char* key : {"iid-mean", "orf", "simrf", "simrf-plus", "optimized"}) {
    const auto& values = table.column(key)->values;
    EXPECT_NEAR(values.front(), 1.0, 1e-5) << key;  // h(0) = 1
    for (std::size_t i = 1; i < values.size(); ++i)
      EXPECT_GT(values[i], values[i - 1]) << key;
  }
}

}  // namespace
}  // namespace rfscope
