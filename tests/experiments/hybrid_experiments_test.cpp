#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "core/experiments/hybrid_relative_error.h"
#include "core/experiments/pointwise_softmax.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

TEST(HybridRelativeError, TrigAndFavorMatchLemma34AndTheHybridRespectsTheorem35) {
  const RunResult result = runWith(HybridRelativeError(), {{"r-steps", std::int64_t{12}}});
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  const auto& r = table.column("r")->values;
  const auto& trig = table.column("trig")->values;
  const auto& favor = table.column("favor")->values;
  const auto& hybrid = table.column("hybrid")->values;
  const auto& lemma = table.column("lemma-3-4")->values;
  const auto& bound = table.column("theorem-3-5")->values;
  for (std::size_t i = 0; i < r.size(); ++i) {
    // The worst case of TrigRF is θ = π and of FAVOR+ θ = 0, both on the grid.
    EXPECT_NEAR(trig[i] / lemma[i], 1.0, 1e-9) << r[i];
    EXPECT_NEAR(favor[i] / lemma[i], 1.0, 1e-9) << r[i];
    if (r[i] >= 1) {
      EXPECT_LE(hybrid[i], bound[i]) << r[i];
      EXPECT_LT(hybrid[i], trig[i]) << r[i];
    } else {
      EXPECT_TRUE(std::isnan(bound[i]));
    }
  }
}

const test::Overrides kSmallPointwise{
    {"d", std::int64_t{8}}, {"theta-steps", std::int64_t{5}}, {"trials", std::int64_t{4000}}};

TEST(PointwiseSoftmax, PercentilesBracketTheTruthAndErrorsMatchTheClosedForms) {
  const RunResult result = runWith(PointwiseSoftmax(), kSmallPointwise);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 5u);
  EXPECT_EQ(table.hints.series.size(), 10u);
  const auto& sm = table.column("sm")->values;
  for (const std::string id : {"trig", "pos-hyp", "hybrid-angular"}) {
    const auto& q05 = table.column(id + "-q05")->values;
    const auto& median = table.column(id + "-median")->values;
    const auto& q95 = table.column(id + "-q95")->values;
    const auto& mc = table.column(id + "-error-mc")->values;
    const auto& exact = table.column(id + "-error")->values;
    for (std::size_t k = 0; k < sm.size(); ++k) {
      EXPECT_LE(q05[k], median[k]) << id << " " << k;
      EXPECT_LE(median[k], q95[k]) << id << " " << k;
      EXPECT_LE(q05[k], sm[k] * (1 + 1e-12)) << id << " " << k;
      EXPECT_GE(q95[k], sm[k] * (1 - 1e-12)) << id << " " << k;
      EXPECT_NEAR(mc[k], exact[k], 0.15 * exact[k] + 1e-6) << id << " " << k;
    }
  }
  // TrigRF is exact at θ = 0, FAVOR+ at θ = π, the hybrid at both (same-length inputs; θ = π is
  // π up to rounding).
  EXPECT_LT(table.column("trig-error")->values.front(), 1e-6);
  EXPECT_LT(table.column("pos-hyp-error")->values.back(), 1e-6);
  EXPECT_LT(table.column("hybrid-angular-error")->values.front(), 1e-6);
  EXPECT_LT(table.column("hybrid-angular-error")->values.back(), 1e-6);
  EXPECT_GT(table.column("trig-error")->values.back(), 0.1);
  EXPECT_GT(table.column("pos-hyp-error")->values.front(), 0.1);
}

TEST(PointwiseSoftmax, GaussianHybridIsExactAtZeroAngleAndMatchesItsClosedForm) {
  test::Overrides overrides = kSmallPointwise;
  overrides.push_back({"mechanisms", std::vector<std::string>{"hybrid-gaussian"}});
  overrides.push_back({"bandwidth", 0.5});
  const RunResult result = runWith(PointwiseSoftmax(), overrides);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  const auto& sm = table.column("sm")->values;
  const auto& q05 = table.column("hybrid-gaussian-q05")->values;
  const auto& q95 = table.column("hybrid-gaussian-q95")->values;
  const auto& mc = table.column("hybrid-gaussian-error-mc")->values;
  const auto& exact = table.column("hybrid-gaussian-error")->values;
  for (std::size_t k = 0; k < sm.size(); ++k) {
    EXPECT_LE(q05[k], sm[k] * (1 + 1e-12)) << k;
    EXPECT_GE(q95[k], sm[k] * (1 - 1e-12)) << k;
    EXPECT_NEAR(mc[k], exact[k], 0.15 * exact[k] + 1e-6) << k;
  }
  // At θ = 0, x = y: every cos(τᵀ(x-y)/b) is 1, so λ̂ = 0 and the hybrid is TrigRF, exact there.
  // At θ = π, λ = 1 - e^{-2r²/b²} < 1 leaves a TrigRF share: unlike the angular hybrid, not exact.
  EXPECT_EQ(exact.front(), 0.0);
  EXPECT_GT(exact.back(), 1e-3);
}

TEST(PointwiseSoftmax, LegendSaysMedianAndBandAndErrorsUseTheSecondaryAxis) {
  const Table table = runWith(PointwiseSoftmax(), kSmallPointwise).table;
  // The axes say what is drawn (short legend entries keep the legend off the data).
  EXPECT_NE(table.hints.yLabel.find("median"), std::string::npos);
  EXPECT_NE(table.hints.yLabel.find("5th–95th percentile"), std::string::npos);
  EXPECT_NE(table.hints.y2Label.find("relative error"), std::string::npos);
  EXPECT_FALSE(table.hints.y2Log);  // exact errors reach 0
  for (const auto& series : table.hints.series) {
    const bool error = series.yColumn.find("-error") != std::string::npos;
    EXPECT_EQ(series.secondaryAxis, error) << series.label;
    if (!series.lowColumn.empty()) {
      EXPECT_NE(series.label.find("median"), std::string::npos) << series.label;
      EXPECT_NE(series.label.find("5–95%"), std::string::npos) << series.label;
    }
  }
  // The true value is drawn with markers too, so that it shows where estimates lie on it, and
  // last, over the medians that sit on it (drawn first, TrigRF's median hid it).
  EXPECT_EQ(table.hints.series.back().yColumn, "sm");
  EXPECT_EQ(table.hints.series.back().style, SeriesStyle::LineAndPoints);
}

TEST(HybridRelativeError, TheBoundSaysItExistsForROfOneAndMoreOnly) {
  const Table table = runWith(HybridRelativeError(), {{"r-steps", std::int64_t{4}}}).table;
  bool found = false;
  for (const auto& series : table.hints.series)
    if (series.yColumn == "theorem-3-5") {
      found = true;
      EXPECT_NE(series.label.find("r ≥ 1"), std::string::npos) << series.label;
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace rfscope
