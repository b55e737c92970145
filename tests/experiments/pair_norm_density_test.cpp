#include "core/experiments/pair_norm_density.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>

#include "experiment_test_support.h"
#include "tests/latency_bounds.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kSmallDensity{
    {"blocks", std::int64_t{3000}},
    {"couplings", std::vector<std::string>{"iid", "orf", "simrf", "simrf-plus"}}};

// The histogram's bin width (defaults: d = 6, 60 bins over [0, √(2d) + 8]).
const double kBinWidth = (std::sqrt(12.0) + 8) / 60;

// ∫ p(w) dw: closed forms by the trapezoid rule over the fine grid, histograms as Σ p · width
// over their bins (the rows where they have values).
double integral(const Table& table, const std::string& key) {
  const auto& w = table.column("w")->values;
  const auto& p = table.column(key)->values;
  double sum = 0;
  if (key.rfind("mc-", 0) == 0) {
    for (double value : p)
      if (!std::isnan(value)) sum += value * kBinWidth;
    return sum;
  }
  for (std::size_t i = 1; i < w.size(); ++i)
    sum += 0.5 * (p[i] + p[i - 1]) * (w[i] - w[i - 1]);
  return sum;
}

TEST(PairNormDensity, DensitiesIntegrateToOneAndHistogramsMatchThem) {
  const RunResult result = runWith(PairNormDensity(), kSmallDensity);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  // 400 points for the curves and the bins with visible mass: not the empty right part of
  // [0, √12 + 8], where even IID's density is below 1e-4 of its peak.
  const auto& w = table.column("w")->values;
  EXPECT_GT(table.rowCount(), 400u);
  EXPECT_LT(w.back(), 0.8 * (std::sqrt(12.0) + 8));
  EXPECT_GT(w.back(), std::sqrt(12.0) + 2);
  EXPECT_TRUE(std::is_sorted(w.begin(), w.end()));
  EXPECT_EQ(table.hints.series.size(), 7u);  // 3 closed forms + 4 histograms
  for (const char* id : {"iid", "orf", "simrf"}) {
    EXPECT_NEAR(integral(table, std::string("p-") + id), 1.0, 1e-3) << id;
    EXPECT_NEAR(integral(table, std::string("mc-") + id), 1.0, 1e-4) << id;
    // L1 distance between the histogram and the closed form at the bin centres: 45000 pairs.
    const auto& p = table.column(std::string("p-") + id)->values;
    const auto& mc = table.column(std::string("mc-") + id)->values;
    double l1 = 0;
    std::size_t binsSeen = 0;
    for (std::size_t row = 0; row < p.size(); ++row)
      if (!std::isnan(mc[row])) {
        l1 += std::abs(p[row] - mc[row]) * kBinWidth;
        ++binsSeen;
      }
    EXPECT_LT(l1, 0.05) << id;
    EXPECT_GT(binsSeen, 30u) << id;
  }
  EXPECT_NEAR(integral(table, "mc-simrf-plus"), 1.0, 1e-4);
}

TEST(PairNormDensity, ClosedFormsAreSmoothAtTheirPeak) {
  // 400 points: neighbouring values at the peak differ by well under 1% (60 bins gave pointed
  // peaks).
  const Table table = runWith(PairNormDensity(), {{"blocks", std::int64_t{0}}}).table;
  for (const char* key : {"p-iid", "p-orf", "p-simrf"}) {
    const auto& p = table.column(key)->values;
    const auto peak = std::max_element(p.begin(), p.end());
    ASSERT_NE(peak, p.begin()) << key;
    ASSERT_NE(peak + 1, p.end()) << key;
    EXPECT_LT(std::abs(*(peak + 1) - *peak), 0.01 * *peak) << key;
    EXPECT_LT(std::abs(*(peak - 1) - *peak), 0.01 * *peak) << key;
  }
}

TEST(PairNormDensity, CouplingTrimsTheTail) {
  // Fig. 5: less mass at large w_ij for ORF than IID, and for SimRF than ORF.
  const Table table = runWith(PairNormDensity(), {{"blocks", std::int64_t{0}}}).table;
  const auto& w = table.column("w")->values;
  const auto tail = [&](const char* key) {
    double mass = 0;
    for (std::size_t b = 0; b < w.size(); ++b)
      if (w[b] > std::sqrt(12.0) + 1) mass += table.column(key)->values[b];
    return mass;
  };
  EXPECT_GT(tail("p-iid"), tail("p-orf"));
  EXPECT_GT(tail("p-orf"), tail("p-simrf"));
}

}  // namespace
}  // namespace rfscope
