#pragma once
// JSON views of specs, registries and tables (nlohmann::json), shared by the CLI and sessions.

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/experiments/experiment.h"
#include "core/params/parameter_set.h"

namespace rfscope {

nlohmann::json parameterValueToJson(const ParameterValue& value);
nlohmann::json parameterSpecToJson(const ParameterSpec& spec);
nlohmann::json parameterSetToJson(const ParameterSet& set);
nlohmann::json tableToJson(const Table& table);
// "line", "points", "line-and-points": a series' style as tables in JSON name it.
const char* seriesStyleId(SeriesStyle style);

// Everything `rfscope-cli list` prints: experiments with specs, presets (id, title, experiment,
// description, values), mechanisms, couplings, regimes.
nlohmann::json catalogToJson();

// A double that JSON can hold, or null (JSON has no inf/nan).
inline nlohmann::json finiteOrNull(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Whether a log value is one the CLI promises: finite, or -inf (an exact zero).
inline bool isFiniteOrZeroLog(double logValue) {
  return !std::isnan(logValue) && logValue != std::numeric_limits<double>::infinity();
}

}  // namespace rfscope
