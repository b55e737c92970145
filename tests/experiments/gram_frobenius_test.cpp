#include "core/experiments/gram_frobenius.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kSmall{{"d", std::int64_t{16}},
                             {"points", std::int64_t{24}},
                             {"features-min", std::int64_t{16}},
                             {"features-max", std::int64_t{64}},
                             {"features-steps", std::int64_t{4}},
                             {"repetitions", std::int64_t{200}}};

TEST(GramFrobenius, SimplexBeatsOrthogonalBeatsIidAndMoreFeaturesHelp) {
  const RunResult result = runWith(GramFrobenius(), kSmall);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 4u);
  const auto& iid = table.column("iid-mean")->values;
  const auto& orf = table.column("orf-mean")->values;
  const auto& simrf = table.column("simrf-mean")->values;
  for (std::size_t i = 0; i < iid.size(); ++i) {
    EXPECT_LT(orf[i], iid[i]) << i;
    EXPECT_LT(simrf[i], orf[i]) << i;
    if (i > 0) {
      EXPECT_LT(iid[i], iid[i - 1]) << i;
    }
  }
}

TEST(GramFrobenius, IidErrorMatchesTheSumOfEntryVariances) {
  // E Σ (K - K̂)² = Σ_ij Var K̂_ij = Σ_ij Var₁ / M for i.i.d. features: M times the mean error
  // is the same for every M up to sampling noise.
  const Table table = runWith(GramFrobenius(), kSmall).table;
  const auto& m = table.column("features")->values;
  const auto& iid = table.column("iid-mean")->values;
  const auto& low = table.column("iid-low")->values;
  const auto& high = table.column("iid-high")->values;
  for (std::size_t i = 1; i < m.size(); ++i) {
    const double ratio = (iid[i] * m[i]) / (iid[0] * m[0]);
    const double spread = (high[i] - low[i]) / iid[i] + (high[0] - low[0]) / iid[0];
    EXPECT_NEAR(ratio, 1.0, 2 * spread) << m[i];
  }
}

TEST(GramFrobenius, SameNumbersForAnyThreadCount) {
  const test::Overrides tiny{{"d", std::int64_t{8}},
                             {"points", std::int64_t{10}},
                             {"features-min", std::int64_t{8}},
                             {"features-max", std::int64_t{20}},
                             {"features-steps", std::int64_t{3}},
                             {"repetitions", std::int64_t{20}}};
  Table one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = runWith(GramFrobenius(), tiny).table;
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = runWith(GramFrobenius(), tiny).table;
  }
  test::expectSameTable(one, two);
}

TEST(GramFrobenius, StopsWhenCancelledWithCompleteRowsOnly) {
  const GramFrobenius experiment;
  test::TimedCancelContext context(0.2);
  const RunResult result = experiment.run(
      test::parametersWith(experiment, {{"repetitions", std::int64_t{100000}}}), context);
  EXPECT_EQ(result.status, RunStatus::Cancelled);
  EXPECT_LT(context.stopDelay(), 0.3);
  for (const auto& column : result.table.columns)
    EXPECT_EQ(column.values.size(), result.table.rowCount());
}

}  // namespace
}  // namespace rfscope
