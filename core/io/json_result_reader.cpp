#include "core/io/json_result_reader.h"

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "core/data/input_file.h"
#include "core/experiments/experiment_registry.h"
#include "core/io/bounded_json.h"
#include "core/io/json_export.h"
#include "core/io/parameter_set_json.h"

namespace rfscope {
namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string indexed(const std::string& where, std::size_t index) {
  return where + "[" + std::to_string(index) + "]";
}

const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const Json& requiredMember(const Json& object, const std::string& where, const char* key) {
  const Json* value = member(object, key);
  if (!value) fail(where, std::string("\"") + key + "\" is missing");
  return *value;
}

void requireObject(const Json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object, not " + shownJson(value));
}

const Json& requireArray(const Json& value, const std::string& where) {
  if (!value.is_array()) fail(where, "must be a list, not " + shownJson(value));
  return value;
}

// A string member; a missing one is "" unless required.
std::string text(const Json& object, const std::string& where, const char* key,
                 bool required = false) {
  const Json* value = required ? &requiredMember(object, where, key) : member(object, key);
  if (!value) return {};
  if (!value->is_string()) fail(where + "." + key, "must be a string, not " + shownJson(*value));
  return value->get<std::string>();
}

bool flag(const Json& object, const std::string& where, const char* key) {
  const Json* value = member(object, key);
  if (!value || value->is_null()) return false;
  if (!value->is_boolean())
    fail(where + "." + key, "must be true or false, not " + shownJson(*value));
  return value->get<bool>();
}

// A number, or null for no value (NaN: JSON holds neither nan nor inf).
double number(const Json& value, const std::string& where) {
  if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!value.is_number()) fail(where, "must be a number or null, not " + shownJson(value));
  return value.get<double>();
}

// A column key the hints refer to: one of the table's columns (or "" where allowed).
std::string columnKey(const Json& object, const std::string& where, const char* key,
                      const Table& table, bool required) {
  const std::string name = text(object, where, key, required);
  if (name.empty() && !required) return name;
  if (!table.column(name))
    fail(where + "." + key, "names no column of the table (" + shownJson(name) + ")");
  return name;
}

SeriesStyle styleFrom(const Json& series, const std::string& where) {
  const Json* value = member(series, "style");
  if (!value || value->is_null()) return SeriesStyle::Line;
  for (SeriesStyle style : {SeriesStyle::Line, SeriesStyle::Points, SeriesStyle::LineAndPoints})
    if (value->is_string() && value->get<std::string>() == seriesStyleId(style)) return style;
  fail(where + ".style",
       "must be \"line\", \"points\" or \"line-and-points\", not " + shownJson(*value));
}

void readColumns(const Json& json, const std::string& where, Table& table) {
  std::set<std::string> keys;
  const Json& columns = requireArray(json, where);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string at = indexed(where, c);
    requireObject(columns[c], at);
    Column column;
    column.key = text(columns[c], at, "key", true);
    if (column.key.empty()) fail(at + ".key", "must not be empty");
    if (!keys.insert(column.key).second)
      fail(at + ".key", "repeats the column " + shownJson(column.key));
    column.label = text(columns[c], at, "label");
    const Json& values = requireArray(requiredMember(columns[c], at, "values"), at + ".values");
    column.values.reserve(values.size());
    for (std::size_t r = 0; r < values.size(); ++r)
      column.values.push_back(number(values[r], indexed(at + ".values", r)));
    if (!table.columns.empty() && column.values.size() != table.rowCount())
      fail(at + ".values", "has " + std::to_string(column.values.size()) + " rows, column " +
                               shownJson(table.columns.front().key) + " has " +
                               std::to_string(table.rowCount()));
    table.columns.push_back(std::move(column));
  }
}

void readSeries(const Json& json, const std::string& where, Table& table) {
  const Json& series = requireArray(json, where);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const std::string at = indexed(where, s);
    requireObject(series[s], at);
    SeriesHint hint;
    hint.label = text(series[s], at, "label");
    hint.yColumn = columnKey(series[s], at, "y", table, true);
    hint.lowColumn = columnKey(series[s], at, "low", table, false);
    hint.highColumn = columnKey(series[s], at, "high", table, false);
    hint.colorKey = text(series[s], at, "color_key");
    hint.warning = text(series[s], at, "warning");
    hint.secondaryAxis = flag(series[s], at, "secondary_axis");
    hint.style = styleFrom(series[s], at);
    table.hints.series.push_back(std::move(hint));
  }
}

void readPlot(const Json& plot, const std::string& where, Table& table) {
  requireObject(plot, where);
  PlotHints& hints = table.hints;
  hints.title = text(plot, where, "title");
  hints.xColumn = columnKey(plot, where, "x", table, true);
  hints.xLabel = text(plot, where, "x_label");
  hints.yLabel = text(plot, where, "y_label");
  hints.xLog = flag(plot, where, "x_log");
  hints.yLog = flag(plot, where, "y_log");
  hints.y2Label = text(plot, where, "y2_label");
  hints.y2Log = flag(plot, where, "y2_log");
  hints.kind = flag(plot, where, "bars") ? PlotKind::GroupedBars : PlotKind::Curves;
  if (const Json* series = member(plot, "series")) readSeries(*series, where + ".series", table);
  if (const Json* names = member(plot, "x_value_names")) {
    const std::string at = where + ".x_value_names";
    requireArray(*names, at);
    for (std::size_t i = 0; i < names->size(); ++i) {
      const std::string entry = indexed(at, i);
      requireObject((*names)[i], entry);
      const double x = number(requiredMember((*names)[i], entry, "x"), entry + ".x");
      if (!std::isfinite(x)) fail(entry + ".x", "must be a number");
      hints.xValueNames.emplace_back(x, text((*names)[i], entry, "name", true));
    }
  }
  if (const Json* markers = member(plot, "x_markers")) {
    const std::string at = where + ".x_markers";
    requireArray(*markers, at);
    for (std::size_t i = 0; i < markers->size(); ++i) {
      const std::string entry = indexed(at, i);
      requireObject((*markers)[i], entry);
      XMarker marker;
      marker.x = number(requiredMember((*markers)[i], entry, "x"), entry + ".x");
      marker.label = text((*markers)[i], entry, "label");
      marker.colorKey = text((*markers)[i], entry, "color");
      hints.xMarkers.push_back(std::move(marker));
    }
  }
}

}  // namespace

Table tableFromJson(const Json& json, const std::string& where) {
  requireObject(json, where);
  Table table;
  readColumns(requiredMember(json, where, "columns"), where + ".columns", table);
  readPlot(requiredMember(json, where, "plot"), where + ".plot", table);
  return table;
}

SavedRun savedRunFromJson(const Json& json) {
  if (const Json* format = json.is_object() ? member(json, "format") : nullptr;
      format && *format == "rfscope-session")
    throw std::runtime_error("this is a session, not a saved result: open it as a session");
  if (!json.is_object() || !member(json, "experiment") || !member(json, "table"))
    throw std::runtime_error(
        "not an RFScope result (a JSON table export has \"experiment\" and \"table\")");
  SavedRun run;
  run.experimentId = text(json, "result", "experiment", true);
  const Experiment* experiment = findExperiment(run.experimentId);
  if (!experiment)
    fail("experiment", "unknown experiment " + shownJson(run.experimentId) +
                           " (rfscope-cli list names those this version has)");
  std::vector<ParameterError> errors;
  const Json* parameters = member(json, "parameters");
  run.parameters = parameterSetFromJson(experiment->parameters(),
                                        parameters ? *parameters : Json::object(), errors);
  if (!errors.empty()) {
    std::string message;
    for (const auto& e : errors)
      message += (message.empty() ? "" : "; ") + e.message;
    fail("parameters", message);
  }
  if (const Json* warnings = member(json, "warnings")) {
    requireArray(*warnings, "warnings");
    for (std::size_t i = 0; i < warnings->size(); ++i) {
      if (!(*warnings)[i].is_string())
        fail(indexed("warnings", i), "must be a string, not " + shownJson((*warnings)[i]));
      run.warnings.push_back((*warnings)[i].get<std::string>());
    }
  }
  if (const Json* seconds = member(json, "seconds"); seconds && !seconds->is_null()) {
    const double value = number(*seconds, "seconds");
    if (!(value >= 0)) fail("seconds", "must not be negative");
    run.seconds = value;
  }
  run.table = tableFromJson(json["table"], "table");
  return run;
}

SavedRun savedRunFromText(std::string_view text) {
  if (text.size() > kMaxResultFileBytes)
    throw std::runtime_error("a saved result may be at most " +
                             describeByteCount(kMaxResultFileBytes));
  const Json json =
      parseBoundedJson(text, kMaxResultNesting, "a saved result is nested at most 5 levels deep");
  try {
    return savedRunFromJson(json);
  } catch (const Json::exception& e) {  // not expected: every access above checks its type first
    throw std::runtime_error(jsonErrorWithoutTag(e));
  }
}

SavedRun loadSavedRun(const std::string& path) {
  std::string content;
  try {
    content = readInputFile(path, kMaxResultFileBytes, "result");
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("cannot read result ") + e.what());
  }
  try {
    return savedRunFromText(content);
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "': " + e.what());
  }
}

}  // namespace rfscope
