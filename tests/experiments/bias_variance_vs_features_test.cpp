#include "core/experiments/bias_variance_vs_features.h"

#include <gtest/gtest.h>

#include <cmath>

#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

// TrigRF at d = 4, ‖x - y‖ = 1 under iid, orf and orf-fixed-norm, M = 4 … 64, with Monte Carlo.
const test::Overrides kSmall{{"features-max", std::int64_t{64}},
                             {"features-steps", std::int64_t{5}},
                             {"trials", std::int64_t{20000}}};

TEST(BiasVarianceVsFeatures, MseIsVariancePlusBiasSquaredAndOnlyTheFixedNormIsBiased) {
  const RunResult result = runWith(BiasVarianceVsFeatures(), kSmall);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 5u);
  for (const char* key : {"trig-iid", "trig-orf", "trig-orf-fixed-norm"}) {
    const std::string k = key;
    const auto& variance = table.column(k + "-variance")->values;
    const auto& bias2 = table.column(k + "-bias2")->values;
    const auto& mse = table.column(k + "-mse")->values;
    const auto& low = table.column(k + "-mc-low")->values;
    const auto& high = table.column(k + "-mc-high")->values;
    const bool biased = k == "trig-orf-fixed-norm";
    for (std::size_t i = 0; i < mse.size(); ++i) {
      EXPECT_DOUBLE_EQ(mse[i], variance[i] + bias2[i]) << k << " " << i;
      if (biased)
        EXPECT_NEAR(bias2[i], 8.884e-4, 1e-6) << i;  // (Ω₄(2) - e^{-1/2})², independent of M
      else
        EXPECT_EQ(bias2[i], 0.0) << k;
      // The closed-form MSE inside the Monte Carlo point's 99.9% interval: its variance part's
      // 95% interval widened by the ratio of the normal quantiles, and (sample mean - K)², which
      // moves by 2|bias| times the mean's standard error √(Var/N), added in quadrature.
      const double centre = 0.5 * (low[i] + high[i]);
      const double varianceHalf = 0.5 * (high[i] - low[i]) * 3.29 / 1.96;
      const double meanHalf = 3.29 * 2 * std::sqrt(bias2[i] * variance[i] / 20000);
      EXPECT_NEAR(mse[i], centre, std::hypot(varianceHalf, meanHalf)) << k << " row " << i;
    }
  }
  // A legend entry per unbiased series, three (MSE, variance, bias²) for the biased one, and the
  // Monte Carlo points of each.
  EXPECT_EQ(table.hints.series.size(), 2u * 2u + 4u);
}

}  // namespace
}  // namespace rfscope
