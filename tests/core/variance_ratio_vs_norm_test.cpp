#include "core/experiments/variance_ratio_vs_norm.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

Table runWith(const std::vector<std::pair<std::string, ParameterValue>>& values) {
  const VarianceRatioVsNorm experiment;
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  for (const auto& [key, value] : values)
    params.set(key, value);
  EXPECT_TRUE(experiment.validate(params).empty());
  SilentRunContext context;
  return experiment.run(params, context).table;
}

TEST(VarianceRatioVsNorm, MatchesTheGerfFormulaAtHighPrecision) {
  // References: CRT Thm 3.2 (s = +1, real A = A*) over PosRF's K² expm1(u), evaluated with 40-digit
  // mpmath at x = y (K = 1): μ(64, 100) and μ(16, 25.0075).
  const Table table = runWith({{"dimensions", std::vector<std::string>{"16", "64"}},
                               {"u-min", 25.0075},
                               {"u-max", 100.0},
                               {"u-steps", std::int64_t{2}}});
  ASSERT_EQ(table.rowCount(), 2u);
  EXPECT_NEAR(table.column("mu-d64")->values[1], -61.22118003633181439804, 1e-10 * 61.2);
  EXPECT_NEAR(table.column("mu-d16")->values[0], -15.31128729278678973318, 1e-10 * 15.3);
}

TEST(VarianceRatioVsNorm, OprfNeverLosesAndGainsMoreAtLargerNormAndSmallerDimension) {
  const Table table = runWith({{"u-steps", std::int64_t{100}}});
  EXPECT_EQ(table.hints.series.size(), 5u);
  for (const char* key : {"mu-d16", "mu-d32", "mu-d64", "mu-d128", "mu-d256"}) {
    const auto& mu = table.column(key)->values;
    for (std::size_t i = 0; i < mu.size(); ++i) {
      EXPECT_LE(mu[i], 0.0) << key;
      if (i > 0) {
        EXPECT_LT(mu[i], mu[i - 1]) << key;
      }
    }
  }
  EXPECT_LT(table.column("mu-d16")->values.back(), table.column("mu-d256")->values.back());
}

TEST(VarianceRatioVsNorm, RejectsAnEmptyRange) {
  const VarianceRatioVsNorm experiment;
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  params.set("u-min", 5.0);
  params.set("u-max", 5.0);
  ASSERT_EQ(experiment.validate(params).size(), 1u);
}

}  // namespace
}  // namespace rfscope
