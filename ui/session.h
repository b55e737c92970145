#pragma once
// A session: the experiment, its parameters, the plot view and the result shown, saved as JSON and
// restored exactly; a session with its result reopens showing the figure without recomputing.
// Loading validates everything first, so a malformed file changes nothing. A session file is at
// most kMaxSessionFileBytes with JSON nested at most kMaxSessionNesting deep (input_limits.h),
// both checked before the JSON is built; a result that would make the file larger is left out.
// Files without a result (those of earlier versions) open as before, and are recomputed.

#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/params/parameter_set.h"
#include "ui/plot_view.h"

namespace rfscope::ui {

// The result of the session's parameters, as shown when it was saved.
struct SessionResult {
  Table table;
  std::vector<std::string> warnings;
  std::optional<double> seconds;  // the run's time
};

struct Session {
  std::string experimentId;
  ParameterSet parameters;
  PlotViewState view;
  std::optional<SessionResult> result;  // none: recomputed when opened
};

// What became of a session's result when it was written.
enum class SessionResultSaved { None, Kept, TooLarge };

nlohmann::json sessionToJson(const Session& session);
// The session as the text saved to files (invalid UTF-8 in file names replaced, not an error). A
// result that would make the text longer than kMaxSessionFileBytes is left out (*saved says so).
std::string sessionToText(const Session& session, SessionResultSaved* saved = nullptr);

// Throws std::runtime_error with a message naming the first problems and the keys they are in
// (unknown experiment, parameters that do not fit the spec, malformed view, wrong JSON types).
Session sessionFromJson(const nlohmann::json& json);

// Parses and validates the text of a session file: sizes and nesting bounded, then
// sessionFromJson. Messages never carry nlohmann-json's "[json.exception…]" tags.
Session sessionFromText(std::string_view text);

// Atomic; throws on failure.
SessionResultSaved saveSession(const QString& path, const Session& session);
Session loadSession(const QString& path);  // throws on failure

}  // namespace rfscope::ui
