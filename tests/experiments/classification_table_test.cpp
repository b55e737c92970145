#include "core/experiments/classification_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/experiments/classification.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

TEST(ClassificationTable, OneRowPerDatasetAndTheAverage) {
  const RunResult result = runWith(ClassificationTable(), {{"repeats", std::int64_t{3}}});
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 3u);  // banknote, wifi, average
  EXPECT_EQ(table.columns.front().key, "dataset");
  EXPECT_EQ(table.column("dataset")->values, (std::vector<double>{2, 7, kAverageRowDataset}));
  EXPECT_EQ(table.column("train-points")->values[0], 1234);  // floor(0.9 · 1372)
  // Drawn as grouped bars, the x axis naming each row's dataset.
  EXPECT_EQ(table.hints.kind, PlotKind::GroupedBars);
  for (const auto& [code, name] :
       {std::pair{2.0, "banknote"}, {7.0, "wifi"}, {kAverageRowDataset, "average"}}) {
    const auto& names = table.hints.xValueNames;
    const double wanted = code;  // clang 14 cannot capture a structured binding
    const auto found = std::find_if(names.begin(), names.end(),
                                    [&](const auto& entry) { return entry.first == wanted; });
    ASSERT_NE(found, names.end()) << name;
    EXPECT_EQ(found->second, name);
  }
  for (const char* key : {"accuracy-exact", "accuracy-trig-iid", "accuracy-pos-iid",
                          "accuracy-oprf-iid", "accuracy-oprf-iid-std", "disagreement-pos-iid"}) {
    const Column* column = table.column(key);
    ASSERT_NE(column, nullptr) << key;
    EXPECT_NEAR(column->values[2], (column->values[0] + column->values[1]) / 2, 1e-15) << key;
  }
}

TEST(ClassificationTable, RowsAreTheClassificationExperimentsNumbers) {
  // The same dataset, M, mechanisms, couplings and seed: the same draws and the same accuracies.
  const Table table =
      runWith(ClassificationTable(), {{"datasets", std::vector<std::string>{"wifi"}},
                                      {"features", std::int64_t{14}},
                                      {"repeats", std::int64_t{3}}})
          .table;
  const Table curve =
      runWith(Classification(), {{"dataset", std::string("wifi")},
                                 {"features", std::string("14")},
                                 {"features-unit", std::string("absolute")},
                                 {"mechanisms", std::vector<std::string>{"trig", "pos", "oprf"}},
                                 {"couplings", std::vector<std::string>{"iid"}},
                                 {"repeats", std::int64_t{3}}})
          .table;
  for (const char* key : {"accuracy-exact", "accuracy-trig-iid", "accuracy-pos-iid",
                          "accuracy-oprf-iid-std", "disagreement-oprf-iid"})
    EXPECT_EQ(table.column(key)->values[0], curve.column(key)->values[0]) << key;
}

TEST(ClassificationTable, NeedsADataset) {
  ParameterSet params = ParameterSet::defaults(ClassificationTable().parameters());
  params.set("datasets", std::vector<std::string>{});
  const auto errors = ClassificationTable().validate(params);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].key, "datasets");
}

}  // namespace
}  // namespace rfscope
