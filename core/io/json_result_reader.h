#pragma once
// Reads back a run saved as JSON (JsonTableWriter's files: `rfscope-cli run --json`, the app's
// table export) and the table JSON inside it (tableToJson, also kept in saved sessions). Every
// malformed part is refused with a message naming where it is ("table.columns[2].values[5]: must
// be a number or null, not \"x\""), never half-read. JSON has no inf or nan: what was written as
// null reads back as NaN (no value).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/experiments/table.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// A saved run, as JsonTableWriter wrote it.
struct SavedRun {
  std::string experimentId;  // a registered experiment
  ParameterSet parameters;   // checked against the experiment's specs, defaults filled in
  Table table;
  std::vector<std::string> warnings;
  std::optional<double> seconds;
};

// The table of tableToJson: columns of one length with unique keys, and plot hints that name only
// columns of the table. `where` prefixes messages ("table", "result.table"). Throws
// std::runtime_error.
Table tableFromJson(const nlohmann::json& json, const std::string& where = "table");

// A whole saved run (experiment, parameters, warnings, seconds, table). Throws std::runtime_error.
SavedRun savedRunFromJson(const nlohmann::json& json);

// The text of a saved run: at most kMaxResultFileBytes, nested at most kMaxResultNesting deep,
// both checked before the JSON is built.
SavedRun savedRunFromText(std::string_view text);

// Reads a regular file of at most kMaxResultFileBytes; messages start with the file's name.
SavedRun loadSavedRun(const std::string& path);

}  // namespace rfscope
