#pragma once
// A session: the experiment, its parameters and the plot view, saved as JSON and restored exactly.
// Loading validates everything first, so a malformed file changes nothing.

#include <QString>
#include <nlohmann/json.hpp>
#include <string>

#include "core/params/parameter_set.h"
#include "ui/plot_view.h"

namespace rfscope::ui {

struct Session {
  std::string experimentId;
  ParameterSet parameters;
  PlotViewState view;
};

nlohmann::json sessionToJson(const Session& session);

// Throws std::runtime_error with a message naming the first problems (unknown experiment,
// parameters that do not fit the spec, malformed view).
Session sessionFromJson(const nlohmann::json& json);

void saveSession(const QString& path, const Session& session);  // atomic; throws on failure
Session loadSession(const QString& path);                       // throws on failure

}  // namespace rfscope::ui
