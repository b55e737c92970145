#pragma once
// A session: the experiment, its parameters and the plot view, saved as JSON and restored exactly.
// Loading validates everything first, so a malformed file changes nothing. A session file is at
// most kMaxSessionFileBytes with JSON nested at most kMaxSessionNesting deep (input_limits.h),
// both checked before the JSON is built.

#include <QString>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/params/parameter_set.h"
#include "ui/plot_view.h"

namespace rfscope::ui {

struct Session {
  std::string experimentId;
  ParameterSet parameters;
  PlotViewState view;
};

nlohmann::json sessionToJson(const Session& session);
// The session as the text saved to files (invalid UTF-8 in file names replaced, not an error).
std::string sessionToText(const Session& session);

// Throws std::runtime_error with a message naming the first problems and the keys they are in
// (unknown experiment, parameters that do not fit the spec, malformed view, wrong JSON types).
Session sessionFromJson(const nlohmann::json& json);

// Parses and validates the text of a session file: sizes and nesting bounded, then
// sessionFromJson. Messages never carry nlohmann-json's "[json.exception…]" tags.
Session sessionFromText(std::string_view text);

void saveSession(const QString& path, const Session& session);  // atomic; throws on failure
Session loadSession(const QString& path);                       // throws on failure

}  // namespace rfscope::ui
