// The attention-features-needed experiment: one bar pair per mechanism × coupling, the predicted M
// the delta method's (the same numbers as attention-error's own summary), the measured M inside
// the grid points that bracket the crossing, and both close where the delta method holds.

#include <gtest/gtest.h>

#include <limits>

#include <cmath>
#include <string>
#include <vector>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/experiment_support.h"
#include "tests/experiments/experiment_test_support.h"

namespace rfscope {
namespace {

const Experiment& featuresNeeded() {
  return *findExperiment("attention-features-needed");
}

const std::vector<double>& values(const Table& table, const std::string& key) {
  const Column* column = table.column(key);
  EXPECT_NE(column, nullptr) << key;
  static const std::vector<double> none;
  return column ? column->values : none;
}

// Small inputs (spread ≲ 0.1 at the crossing): predicted and measured M agree within 25% for the
// i.i.d. positive mechanisms; the coupled rows have no prediction but a measured M.
// A predicted M can exceed any integer type (PosRF at large norms: 2.5e19): no overflowing cast.
TEST(CountText, WholeNumbersBelowAMillionThenThreeDigitsAndAPowerOfTen) {
  EXPECT_EQ(countText(12727.4), "12727");
  EXPECT_EQ(countText(999999.4), "999999");
  // A warning read "M ≈ 2472773693882": 13 digits of a prediction good to a few percent.
  EXPECT_EQ(countText(2472773693882.0), "2.47 × 10¹²");
  EXPECT_EQ(countText(2.51484e19), "2.51 × 10¹⁹");
  EXPECT_EQ(countText(9.996e6), "1.00 × 10⁷");
  EXPECT_EQ(countText(1e100), "1.00 × 10¹⁰⁰");
  EXPECT_EQ(countText(std::numeric_limits<double>::infinity()), "inf");
}

TEST(AttentionFeaturesNeeded, PredictedAndMeasuredAgreeUnderEveryCoupling) {
  const test::Overrides settings = {{"input-scale", 0.3},
                                    {"mechanisms", std::vector<std::string>{"pos", "oprf"}},
                                    {"couplings", std::vector<std::string>{"iid", "orf"}},
                                    {"features-min", std::int64_t{16}},
                                    {"features-max", std::int64_t{256}},
                                    {"features-steps", std::int64_t{9}},
                                    {"redraws", std::int64_t{40}}};
  const RunResult r = test::runWith(featuresNeeded(), settings);
  ASSERT_EQ(r.status, RunStatus::Completed);
  const Table& t = r.table;
  ASSERT_EQ(t.rowCount(), 4u);
  EXPECT_EQ(t.hints.kind, PlotKind::GroupedBars);
  ASSERT_EQ(t.hints.xValueNames.size(), 4u);
  EXPECT_EQ(t.hints.xValueNames[0].second, "PosRF, IID");
  EXPECT_EQ(t.hints.xValueNames[3].second, "OPRF, ORF");
  const auto& predicted = values(t, "features-predicted");
  const auto& measured = values(t, "features-measured");
  const auto& low = values(t, "features-measured-low");
  const auto& high = values(t, "features-measured-high");
  for (std::size_t row = 0; row < 4; ++row) {  // i.i.d. and orthogonal rows alike
    ASSERT_FALSE(std::isnan(predicted[row])) << row;
    ASSERT_FALSE(std::isnan(measured[row])) << row;
    EXPECT_LT(low[row], high[row]) << row;
    EXPECT_GE(measured[row], low[row]) << row;
    EXPECT_LE(measured[row], high[row]) << row;
    EXPECT_NEAR(measured[row] / predicted[row], 1.0, 0.25) << row;
  }

  // The predicted M is attention-error's own summary for the same settings (which does not depend
  // on the redraws).
  test::Overrides quick = settings;
  quick.back() = {"redraws", std::int64_t{2}};
  const RunResult inner = test::runWith(*findExperiment("attention-error"), quick);
  int found = 0;
  for (const std::string& line : inner.warnings) {
    if (line.rfind("features for output error", 0) != 0) continue;
    ++found;
    EXPECT_NE(line.find("PosRF, IID M ≈ " + std::to_string(std::llround(predicted[0]))),
              std::string::npos)
        << line;
  }
  EXPECT_EQ(found, 1);
}

// A target beyond the grid: no measured M, and a warning that says to raise features-max.
TEST(AttentionFeaturesNeeded, UnreachedTargetsAreNamed) {
  const RunResult r = test::runWith(featuresNeeded(), {{"target-error", 0.001},
                                                       {"features-max", std::int64_t{32}},
                                                       {"features-steps", std::int64_t{2}},
                                                       {"redraws", std::int64_t{3}}});
  ASSERT_EQ(r.status, RunStatus::Completed);
  EXPECT_TRUE(std::isnan(values(r.table, "features-measured")[0]));
  bool named = false;
  for (const std::string& line : r.warnings)
    named = named || line.find("raise features-max") != std::string::npos;
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace rfscope
