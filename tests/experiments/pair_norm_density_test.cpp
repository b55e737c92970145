#include "core/experiments/pair_norm_density.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "experiment_test_support.h"
#include "tests/latency_bounds.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kSmall{
    {"blocks", std::int64_t{3000}},
    {"couplings", std::vector<std::string>{"iid", "orf", "simrf", "simrf-plus"}}};

double integral(const Table& table, const std::string& key) {
  const auto& w = table.column("w")->values;
  const double width = w[1] - w[0];
  double sum = 0;
  for (double p : table.column(key)->values)
    sum += p * width;
  return sum;
}

TEST(PairNormDensity, DensitiesIntegrateToOneAndHistogramsMatchThem) {
  const RunResult result = runWith(PairNormDensity(), kSmall);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  EXPECT_EQ(table.rowCount(), 60u);
  EXPECT_EQ(table.hints.series.size(), 7u);  // 3 closed forms + 4 histograms
  for (const char* id : {"iid", "orf", "simrf"}) {
    EXPECT_NEAR(integral(table, std::string("p-") + id), 1.0, 1e-3) << id;
    EXPECT_NEAR(integral(table, std::string("mc-") + id), 1.0, 1e-12) << id;
    // L1 distance between the histogram and the closed form: 45000 pairs in 60 bins.
    const auto& p = table.column(std::string("p-") + id)->values;
    const auto& mc = table.column(std::string("mc-") + id)->values;
    const double width = table.column("w")->values[1] - table.column("w")->values[0];
    double l1 = 0;
    for (std::size_t b = 0; b < p.size(); ++b)
      l1 += std::abs(p[b] - mc[b]) * width;
    EXPECT_LT(l1, 0.05) << id;
  }
  EXPECT_NEAR(integral(table, "mc-simrf-plus"), 1.0, 1e-12);
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
