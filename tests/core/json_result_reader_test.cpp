// Saved results read back (core/io/json_result_reader.h): what the JSON table writer writes reads
// back the same, and every malformed part is refused with a message naming where it is.

#include "core/io/json_result_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/data/input_limits.h"
#include "core/experiments/experiment_registry.h"
#include "core/io/json_table_writer.h"

namespace rfscope {
namespace {

Table sampleTable() {
  Table table;
  const ColumnHandle x = table.addColumn("sigma", "σ", {0.25, 0.5, 1.0});
  const ColumnHandle mean = table.addColumn("pos-mean", "PosRF mean", {-2.0, 0.1 + 0.2, 7.5});
  table.addColumn("pos-low", "PosRF low",
                  {-3.0, std::numeric_limits<double>::quiet_NaN(), std::nextafter(7.0, 0.0)});
  table.addColumn("pos-high", "PosRF high", {-1.0, 1.0, 8.0});
  (void)x;
  (void)mean;
  table.hints.title = "Log-variance vs σ";
  table.hints.xColumn = "sigma";
  table.hints.xLabel = "σ";
  table.hints.yLabel = "ln Var";
  table.hints.yLog = true;
  table.hints.series.push_back({"PosRF", "pos-mean", "pos-low", "pos-high", "pos",
                                SeriesStyle::Points, "heavy tails", false});
  table.hints.xValueNames = {{0.5, "half"}};
  table.hints.xMarkers = {{0.75, "exact", "pos"}};
  return table;
}

std::string writtenRun(const Table& table) {
  const Experiment* experiment = findExperiment("variance-vs-sigma");
  ParameterSet parameters = ParameterSet::defaults(experiment->parameters());
  parameters.set("d", std::int64_t{16});
  const std::vector<std::string> warnings{"a warning"};
  return JsonTableWriter().write({"variance-vs-sigma", parameters, table, warnings, 1.5});
}

// The message of reading text as a saved run, "" when it is accepted.
std::string errorOf(const std::string& text) {
  try {
    savedRunFromText(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

// The written sample run with `from` replaced by `to` (once).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = writtenRun(sampleTable());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(JsonResultReader, WhatTheWriterWritesReadsBackTheSame) {
  const Table table = sampleTable();
  const SavedRun run = savedRunFromText(writtenRun(table));
  EXPECT_EQ(run.experimentId, "variance-vs-sigma");
  EXPECT_EQ(run.parameters.integer("d"), 16);
  EXPECT_EQ(run.warnings, std::vector<std::string>{"a warning"});
  ASSERT_TRUE(run.seconds);
  EXPECT_EQ(*run.seconds, 1.5);
  ASSERT_EQ(run.table.columns.size(), table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    EXPECT_EQ(run.table.columns[c].key, table.columns[c].key);
    EXPECT_EQ(run.table.columns[c].label, table.columns[c].label);
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
      const double expected = table.columns[c].values[r], got = run.table.columns[c].values[r];
      if (std::isnan(expected))
        EXPECT_TRUE(std::isnan(got));
      else
        EXPECT_EQ(got, expected);  // every bit
    }
  }
  const PlotHints& hints = run.table.hints;
  EXPECT_EQ(hints.title, table.hints.title);
  EXPECT_EQ(hints.xColumn, "sigma");
  EXPECT_TRUE(hints.yLog);
  ASSERT_EQ(hints.series.size(), 1u);
  EXPECT_EQ(hints.series[0].style, SeriesStyle::Points);
  EXPECT_EQ(hints.series[0].lowColumn, "pos-low");
  EXPECT_EQ(hints.series[0].warning, "heavy tails");
  ASSERT_EQ(hints.xValueNames.size(), 1u);
  EXPECT_EQ(hints.xValueNames[0].second, "half");
  ASSERT_EQ(hints.xMarkers.size(), 1u);
  EXPECT_EQ(hints.xMarkers[0].label, "exact");
}

TEST(JsonResultReader, MalformedPartsAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"{not json", "not valid JSON: parse error"},
      {"[1, 2]", "not an RFScope result"},
      {R"({"format":"rfscope-session","version":1})", "a session, not a saved result"},
      {edited("\"variance-vs-sigma\"", "\"nope\""), "experiment: unknown experiment \"nope\""},
      {edited("\"d\": 16", "\"d\": 0"), "parameters: "},
      {edited("\"d\": 16", "\"zzz\": 1"), "unknown parameter 'zzz'"},
      {edited("\"a warning\"", "5"), "warnings[0]: must be a string"},
      {edited("\"seconds\": 1.5", "\"seconds\": -1"), "seconds: must not be negative"},
      {edited("\"columns\"", "\"kolumns\""), "table: \"columns\" is missing"},
      {edited("\"key\": \"pos-high\"", "\"key\": \"pos-mean\""),
       "table.columns[3].key: repeats the column \"pos-mean\""},
      {edited("\"key\": \"pos-high\"", "\"key\": \"\""), "table.columns[3].key: must not be empty"},
      {edited("-2.0", "\"x\""), "table.columns[1].values[0]: must be a number or null, not \"x\""},
      {edited("-2.0,", ""), "table.columns[1].values: has 2 rows, column \"sigma\" has 3"},
      {edited("\"x\": \"sigma\"", "\"x\": \"tau\""),
       "table.plot.x: names no column of the table (\"tau\")"},
      {edited("\"y\": \"pos-mean\"", "\"y\": 3"), "table.plot.series[0].y: must be a string"},
      {edited("\"low\": \"pos-low\"", "\"low\": \"lower\""),
       "table.plot.series[0].low: names no column of the table"},
      {edited("\"style\": \"points\"", "\"style\": \"dots\""),
       "table.plot.series[0].style: must be \"line\", \"points\" or \"line-and-points\""},
      {edited("\"y_log\": true", "\"y_log\": 1"), "table.plot.y_log: must be true or false"},
      {edited("\"name\": \"half\"", "\"name\": 2"), "table.plot.x_value_names[0].name"},
      {edited("\"plot\": {", "\"plot\": [{"), "not valid JSON"},
      {"{\"experiment\":\"variance-vs-sigma\",\"table\":" + std::string(100, '[') +
           std::string(100, ']') + "}",
       "nested more than 32 levels deep"},
      {std::string(kMaxResultFileBytes + 1, ' '), "at most 64 MiB"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = errorOf(text);
    EXPECT_NE(message.find(expected), std::string::npos)
        << "message: " << message << "\nexpected: " << expected;
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
  }
}

TEST(JsonResultReader, TheFuzzerSeedIsAResult) {
  const SavedRun run =
      loadSavedRun(std::string(RFSCOPE_TEST_DATA_DIR) + "/../fuzz/corpus/result/minimal.json");
  EXPECT_EQ(run.table.hints.series.at(1).style, SeriesStyle::LineAndPoints);
  EXPECT_TRUE(std::isnan(run.table.columns.at(1).values.at(2)));
}

TEST(JsonResultReader, FilesAreNamedInMessages) {
  try {
    loadSavedRun("/nonexistent/result.json");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read result"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rfscope
