#include "core/experiments/rff_regression.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

double largestGap(const Table& table, const std::string& a, const std::string& b) {
  double gap = 0;
  const auto& x = table.column(a)->values;
  const auto& y = table.column(b)->values;
  for (std::size_t i = 0; i < x.size(); ++i)
    gap = std::max(gap, std::abs(x[i] - y[i]));
  return gap;
}

TEST(RffRegression, ToyPosteriorApproachesTheExactGpAsFeaturesGrow) {
  // Noise sd 0.3: with 0.1 the solve amplifies the kernel estimates' errors (≈ 1/√D) by
  // 1/ν² = 100, and D = 1000 is still visibly off far from the data.
  const Table few =
      runWith(RffRegression(), {{"band-features", std::int64_t{6}}, {"noise", 0.3}}).table;
  const Table many =
      runWith(RffRegression(), {{"band-features", std::int64_t{1000}}, {"noise", 0.3}}).table;
  test::expectConsistentHints(many);
  ASSERT_EQ(many.rowCount(), 221u);  // the 201-point grid and the 20 training points
  std::size_t training = 0;
  for (const double y : many.column("training-y")->values)
    training += std::isnan(y) ? 0 : 1;
  EXPECT_EQ(training, 20u);
  for (const char* kind : {"sincos", "phase"}) {
    const std::string mean = std::string(kind) + "-mean", high = std::string(kind) + "-high";
    EXPECT_GT(largestGap(few, mean, "exact-mean"), 0.2) << kind;
    EXPECT_LT(largestGap(many, mean, "exact-mean"), 0.1) << kind;
    EXPECT_LT(largestGap(many, high, "exact-high"), 0.2) << kind;
    EXPECT_LT(largestGap(many, high, "exact-high"), largestGap(few, high, "exact-high")) << kind;
  }
  // The exact GP fits the truth near the data: |mean - sin(1.5x)| small on [-2, 2].
  const auto& x = many.column("x")->values;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::abs(x[i]) < 2 && !std::isnan(many.column("exact-mean")->values[i])) {
      EXPECT_NEAR(many.column("exact-mean")->values[i], many.column("truth")->values[i], 0.2)
          << x[i];
    }
}

TEST(RffRegression, AbaloneRmseFallsTowardsTheExactGp) {
  const Table table = runWith(RffRegression(), {{"task", std::string("abalone")},
                                                {"train-points", std::int64_t{400}},
                                                {"sigma", 0.5},
                                                {"noise", 0.7},
                                                {"features", std::string("2,256")},
                                                {"repeats", std::int64_t{4}}})
                          .table;
  const double exact = table.column("rmse-exact")->values[0];
  EXPECT_GT(exact, 1.5);  // rings have sd ≈ 3.2
  EXPECT_LT(exact, 3.0);
  for (const char* kind : {"rmse-sincos-mean", "rmse-phase-mean"}) {
    const auto& rmse = table.column(kind)->values;
    EXPECT_GT(rmse[0] - exact, 0.1) << kind;
    EXPECT_LT(std::abs(rmse[1] - exact), (rmse[0] - exact) / 4) << kind;
  }
}

TEST(RffRegression, SameNumbersForAnyThreadCount) {
  const test::Overrides values{{"task", std::string("abalone")},
                               {"train-points", std::int64_t{100}},
                               {"features", std::string("4,16")},
                               {"repeats", std::int64_t{3}}};
  Table one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = runWith(RffRegression(), values).table;
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = runWith(RffRegression(), values).table;
  }
  test::expectSameTable(one, two);
}

TEST(RffRegression, FeatureBudgetsMustBeEven) {
  ParameterSet params = ParameterSet::defaults(RffRegression().parameters());
  params.set("band-features", std::int64_t{7});
  auto errors = RffRegression().validate(params);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].key, "band-features");
  params = ParameterSet::defaults(RffRegression().parameters());
  params.set("features", std::string("4,9"));
  errors = RffRegression().validate(params);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].key, "features");
}

}  // namespace
}  // namespace rfscope
