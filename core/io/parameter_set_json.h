#pragma once
// Reads a parameter set back from JSON (sessions, presets) against the specs, so that a malformed
// or out-of-date file is reported key by key instead of being half-applied.

#include <nlohmann/json.hpp>
#include <vector>

#include "core/params/parameter_set.h"

namespace rfscope {

// Values missing from json keep the spec default; unknown keys and wrong types are errors.
// Returns the set only if errors is empty afterwards.
ParameterSet parameterSetFromJson(const std::vector<ParameterSpec>& specs,
                                  const nlohmann::json& json, std::vector<ParameterError>& errors);

}  // namespace rfscope
