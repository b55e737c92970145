// The contract every experiment keeps, checked over allExperiments() (a new experiment is checked
// without a line here): the same numbers for 1 and 2 threads, a prompt stop when cancelled,
// partial tables that only grow (or, for histograms, refine every row), CSV and JSON exports that
// read back to the same numbers, and labelled columns that the plot hints name consistently.
// Experiments run at their testParameters(): Light for most checks, Heavy for the cancellation.

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/experiments/experiment_registry.h"
#include "core/io/json_export.h"
#include "core/io/table_csv.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/experiments/experiment_test_support.h"
#include "tests/experiments/registry_printers.h"
#include "tests/latency_bounds.h"

namespace rfscope {
namespace {

using Clock = std::chrono::steady_clock;

// Valid parameters of the given load (a failure names the errors).
ParameterSet testParameters(const Experiment& experiment, TestLoad load) {
  const ParameterSet params = experiment.testParameters(load);
  for (const auto& error : experiment.validate(params))
    ADD_FAILURE() << experiment.info().id << ": " << error.message;
  return params;
}

RunResult runWithThreads(const Experiment& experiment, const ParameterSet& params, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  SilentRunContext context;
  return experiment.run(params, context);
}

// Keeps every partial table and the progress reported.
class RecordingContext final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double fraction) override {
    std::lock_guard lock(mutex_);
    progress.push_back(fraction);
  }
  void publishPartial(const Table& partial) override {
    std::lock_guard lock(mutex_);
    partials.push_back(partial);
  }
  std::vector<Table> partials;
  std::vector<double> progress;

 private:
  std::mutex mutex_;
};

// Cancels at the first partial table or 0.2 s after the start, whichever comes first, and
// records that moment.
class CancelSoonContext final : public RunContext {
 public:
  CancelSoonContext() : deadline_(Clock::now() + std::chrono::milliseconds(200)) {}
  bool cancelled() const override {
    if (cancelled_.load()) return true;
    if (Clock::now() < deadline_) return false;
    cancel();
    return true;
  }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override { cancel(); }
  double secondsSinceCancel() const {
    std::lock_guard lock(mutex_);
    return std::chrono::duration<double>(Clock::now() - cancelledAt_).count();
  }

 private:
  void cancel() const {
    std::lock_guard lock(mutex_);
    if (cancelled_.load()) return;
    cancelledAt_ = Clock::now();
    cancelled_ = true;
  }
  Clock::time_point deadline_;
  mutable std::mutex mutex_;
  mutable std::atomic<bool> cancelled_{false};
  mutable Clock::time_point cancelledAt_;
};

bool sameValue(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Every column of `earlier` is a prefix of the same column of `later`.
void expectPrefix(const Table& earlier, const Table& later, const std::string& what) {
  ASSERT_EQ(earlier.columns.size(), later.columns.size()) << what;
  ASSERT_LE(earlier.rowCount(), later.rowCount()) << what;
  for (std::size_t c = 0; c < earlier.columns.size(); ++c) {
    EXPECT_EQ(earlier.columns[c].key, later.columns[c].key) << what;
    ASSERT_EQ(earlier.columns[c].values.size(), earlier.rowCount()) << what;
    for (std::size_t r = 0; r < earlier.rowCount(); ++r)
      EXPECT_TRUE(sameValue(earlier.columns[c].values[r], later.columns[c].values[r]))
          << what << ": " << earlier.columns[c].key << " row " << r << " changed";
  }
}

double parseCsvNumber(const std::string& field) {
  if (field.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (field == "inf") return std::numeric_limits<double>::infinity();
  if (field == "-inf") return -std::numeric_limits<double>::infinity();
  double value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  EXPECT_TRUE(error == std::errc() && end == field.data() + field.size()) << field;
  return value;
}

// Fields of one CSV line, RFC 4180 quotes undone.
std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool inQuotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (inQuotes && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      inQuotes = !inQuotes;
    } else if (c == ',' && !inQuotes) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

class ExperimentContract : public ::testing::TestWithParam<const Experiment*> {};

TEST_P(ExperimentContract, SameNumbersForOneAndTwoThreads) {
  const Experiment& experiment = *GetParam();
  const ParameterSet params = testParameters(experiment, TestLoad::Light);
  const RunResult one = runWithThreads(experiment, params, 1);
  const RunResult two = runWithThreads(experiment, params, 2);
  ASSERT_EQ(one.status, RunStatus::Completed);
  ASSERT_EQ(two.status, RunStatus::Completed);
  test::expectSameTable(one.table, two.table);
  EXPECT_EQ(one.warnings, two.warnings);
}

TEST_P(ExperimentContract, StopsWithinAThirdOfASecondOfCancellation) {
  const Experiment& experiment = *GetParam();
  CancelSoonContext context;
  const RunResult result = experiment.run(testParameters(experiment, TestLoad::Heavy), context);
  const double delay = context.secondsSinceCancel();
  EXPECT_EQ(result.status, RunStatus::Cancelled) << "the Heavy test load ran to its end";
  EXPECT_LT(delay, 0.3 * test::kLatencyScale);
  for (const auto& column : result.table.columns)  // complete rows only
    EXPECT_EQ(column.values.size(), result.table.rowCount()) << column.key;
}

TEST_P(ExperimentContract, PartialTablesOnlyGrow) {
  const Experiment& experiment = *GetParam();
  RecordingContext context;
  const RunResult result = experiment.run(testParameters(experiment, TestLoad::Light), context);
  ASSERT_EQ(result.status, RunStatus::Completed);
  for (std::size_t i = 1; i < context.progress.size(); ++i)
    EXPECT_GE(context.progress[i], context.progress[i - 1]);
  for (double fraction : context.progress) {
    EXPECT_GE(fraction, 0.0);
    EXPECT_LE(fraction, 1.0);
  }
  const std::string& id = experiment.info().id;
  for (std::size_t i = 0; i < context.partials.size(); ++i) {
    const Table& partial = context.partials[i];
    const std::string what = id + " partial " + std::to_string(i);
    if (experiment.partialTables() == PartialTables::AppendRows) {
      // Rows are only appended: each partial is the start of the next and of the final table.
      if (i > 0) expectPrefix(context.partials[i - 1], partial, what);
      expectPrefix(partial, result.table, what + " vs the final table");
    } else {
      // Every row, refined: the final table's columns, complete.
      ASSERT_EQ(partial.columns.size(), result.table.columns.size()) << what;
      for (std::size_t c = 0; c < partial.columns.size(); ++c) {
        EXPECT_EQ(partial.columns[c].key, result.table.columns[c].key) << what;
        EXPECT_EQ(partial.columns[c].values.size(), partial.rowCount()) << what;
      }
    }
  }
}

TEST_P(ExperimentContract, CsvAndJsonReadBackToTheSameNumbers) {
  const Experiment& experiment = *GetParam();
  const ParameterSet params = testParameters(experiment, TestLoad::Light);
  SilentRunContext context;
  const Table table = experiment.run(params, context).table;
  ASSERT_GT(table.rowCount(), 0u);

  // CSV: '#' metadata, a header of the column keys, one line per row, every number round-trips.
  std::istringstream csv(tableToCsv(table, runMetadata(experiment.info().id, params)));
  std::string line;
  std::vector<std::vector<std::string>> lines;
  bool sawMetadata = false;
  while (std::getline(csv, line)) {
    if (line.rfind("# ", 0) == 0) {
      sawMetadata = true;
      continue;
    }
    lines.push_back(splitCsvLine(line));
  }
  EXPECT_TRUE(sawMetadata);
  ASSERT_EQ(lines.size(), table.rowCount() + 1);
  // Named x values (datasets, estimators) add a column of names after the x column.
  const bool named = !table.hints.xValueNames.empty();
  ASSERT_EQ(lines.front().size(), table.columns.size() + (named ? 1 : 0));
  std::size_t field = 0;
  for (std::size_t c = 0; c < table.columns.size(); ++c, ++field) {
    EXPECT_EQ(lines.front()[field], table.columns[c].key);
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
      ASSERT_EQ(lines[r + 1].size(), lines.front().size()) << "row " << r;
      EXPECT_TRUE(sameValue(parseCsvNumber(lines[r + 1][field]), table.columns[c].values[r]))
          << table.columns[c].key << " row " << r << ": " << lines[r + 1][field];
    }
    if (!named || table.columns[c].key != table.hints.xColumn) continue;
    ++field;
    EXPECT_EQ(lines.front()[field], table.hints.xColumn + "-name");
    for (std::size_t r = 0; r < table.rowCount(); ++r)
      for (const auto& [value, name] : table.hints.xValueNames) {
        if (value == table.columns[c].values[r]) {
          EXPECT_EQ(lines[r + 1][field], name) << r;
        }
      }
  }

  // JSON: keys, labels and finite numbers exactly; NaN and infinities as null.
  const nlohmann::json json = nlohmann::json::parse(tableToJson(table).dump());
  ASSERT_EQ(json["columns"].size(), table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const auto& column = json["columns"][c];
    EXPECT_EQ(column["key"], table.columns[c].key);
    EXPECT_EQ(column["label"], table.columns[c].label);
    ASSERT_EQ(column["values"].size(), table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
      const double value = table.columns[c].values[r];
      if (std::isfinite(value)) {
        EXPECT_EQ(column["values"][r].get<double>(), value) << table.columns[c].key << " " << r;
      } else {
        EXPECT_TRUE(column["values"][r].is_null()) << table.columns[c].key << " " << r;
      }
    }
  }
  EXPECT_EQ(json["plot"]["x"], table.hints.xColumn);
  EXPECT_EQ(json["plot"]["series"].size(), table.hints.series.size());
  EXPECT_EQ(json["plot"].contains("bars"), table.hints.kind == PlotKind::GroupedBars);
  // The labels for paper sizes, where the experiment gives them.
  for (const auto& [key, label] : {std::pair{"x_short_label", table.hints.xShortLabel},
                                   std::pair{"y_short_label", table.hints.yShortLabel},
                                   std::pair{"y2_short_label", table.hints.y2ShortLabel}})
    EXPECT_EQ(json["plot"].value(key, std::string()), label) << key;
  for (std::size_t s = 0; s < table.hints.series.size(); ++s)
    EXPECT_EQ(json["plot"]["series"][s].value("short_label", std::string()),
              table.hints.series[s].shortLabel);
  if (table.hints.xValueNames.empty()) {
    EXPECT_FALSE(json["plot"].contains("x_value_names"));
  } else {
    const auto& names = json["plot"]["x_value_names"];
    ASSERT_EQ(names.size(), table.hints.xValueNames.size());
    EXPECT_EQ(names[0]["x"], table.hints.xValueNames[0].first);
    EXPECT_EQ(names[0]["name"], table.hints.xValueNames[0].second);
  }
  EXPECT_EQ(json["plot"].contains("x_markers"), !table.hints.xMarkers.empty());
  for (std::size_t i = 0; i < table.hints.xMarkers.size(); ++i) {
    EXPECT_EQ(json["plot"]["x_markers"][i]["x"].get<double>(), table.hints.xMarkers[i].x);
    EXPECT_EQ(json["plot"]["x_markers"][i]["label"], table.hints.xMarkers[i].label);
  }
}

// Every column has a unique kebab-case key and a label; the x column and every series' value and
// band columns exist with the table's row count; every series has a legend label and a colour key.
TEST_P(ExperimentContract, EveryColumnIsLabelledAndTheHintsNameRealColumns) {
  const Experiment& experiment = *GetParam();
  SilentRunContext context;
  const Table table = experiment.run(testParameters(experiment, TestLoad::Light), context).table;
  const std::regex kebab("[a-z0-9]+(-[a-z0-9.]+)*");
  std::set<std::string> keys;
  for (const auto& column : table.columns) {
    EXPECT_TRUE(std::regex_match(column.key, kebab)) << column.key;
    EXPECT_TRUE(keys.insert(column.key).second) << "duplicate column " << column.key;
    EXPECT_FALSE(column.label.empty()) << column.key << " has no label";
    EXPECT_EQ(column.values.size(), table.rowCount()) << column.key;
  }
  test::expectConsistentHints(table);
  EXPECT_FALSE(table.hints.title.empty());
  EXPECT_FALSE(table.hints.xLabel.empty());
  EXPECT_FALSE(table.hints.yLabel.empty());
  EXPECT_FALSE(table.hints.series.empty());
  for (const auto& series : table.hints.series) {
    EXPECT_FALSE(series.label.empty()) << series.yColumn;
    EXPECT_FALSE(series.colorKey.empty()) << series.yColumn;
    if (series.secondaryAxis) {
      EXPECT_FALSE(table.hints.y2Label.empty()) << series.yColumn;
    }
  }
}

std::string testName(const ::testing::TestParamInfo<const Experiment*>& info) {
  return test::testNameOf(info.param->info().id);
}

INSTANTIATE_TEST_SUITE_P(AllExperiments, ExperimentContract, ::testing::ValuesIn(allExperiments()),
                         testName);

// Every mechanism, also one registered outside the registry's file (toy_mechanism_test.cpp), in
// the experiment that offers them all: its closed form and Monte Carlo (where it samples under
// IID) over a small σ grid, the same for 1 and 2 threads, in labelled columns.
class MechanismContract : public ::testing::TestWithParam<const Mechanism*> {};

TEST_P(MechanismContract, RunsInVarianceVsSigmaTheSameForOneAndTwoThreads) {
  const Mechanism& mechanism = *GetParam();
  const Experiment& experiment = *findExperiment("variance-vs-sigma");
  ParameterSet params = experiment.testParameters(TestLoad::Light);
  params.set("mechanisms", std::vector<std::string>{mechanism.info().id});
  if (!experiment.validate(params).empty()) params.set("method", std::string("analytic"));
  for (const auto& error : experiment.validate(params))
    ADD_FAILURE() << error.message;
  const RunResult one = runWithThreads(experiment, params, 1);
  const RunResult two = runWithThreads(experiment, params, 2);
  ASSERT_EQ(one.status, RunStatus::Completed);
  test::expectSameTable(one.table, two.table);
  test::expectConsistentHints(one.table);
  ASSERT_GE(one.table.hints.series.size(), 1u);
  EXPECT_EQ(one.table.hints.series.front().colorKey, mechanism.info().id);
  EXPECT_EQ(one.table.hints.series.front().label.rfind(mechanism.info().name, 0), 0u);
  for (const auto& column : one.table.columns)
    EXPECT_FALSE(column.label.empty()) << column.key;
}

std::string mechanismName(const ::testing::TestParamInfo<const Mechanism*>& info) {
  return test::testNameOf(info.param->info().id);
}

INSTANTIATE_TEST_SUITE_P(AllMechanisms, MechanismContract, ::testing::ValuesIn(allMechanisms()),
                         mechanismName);

}  // namespace
}  // namespace rfscope
