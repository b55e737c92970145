#pragma once
// Reading a mechanism's parameters: callers such as experiments may pass an empty set, so every
// read falls back to the spec's default, and optional ("auto") parameters report absence.

#include <optional>
#include <string>

#include "core/params/invalid_parameter.h"
#include "core/params/parameter_set.h"

namespace rfscope {

inline double realOr(const ParameterSet& params, const std::string& key, double fallback) {
  return params.contains(key) ? params.real(key) : fallback;
}

inline std::optional<double> optionalReal(const ParameterSet& params, const std::string& key) {
  if (!params.contains(key)) return std::nullopt;
  return params.real(key);
}

inline std::int64_t integerOr(const ParameterSet& params, const std::string& key,
                              std::int64_t fallback) {
  return params.contains(key) ? params.integer(key) : fallback;
}

inline bool booleanOr(const ParameterSet& params, const std::string& key, bool fallback) {
  return params.contains(key) ? params.boolean(key) : fallback;
}

inline std::string choiceOr(const ParameterSet& params, const std::string& key,
                            const std::string& fallback) {
  return params.contains(key) ? params.choice(key) : fallback;
}

// A parameter that must be present (e.g. an optimum a feature map needs resolved); throws
// InvalidParameter naming it otherwise.
inline double requiredReal(const ParameterSet& params, const std::string& key,
                           const std::string& owner) {
  if (!params.contains(key))
    throw InvalidParameter(key, owner + " needs parameter '" + key +
                                    "' resolved (at a pair or from data) before drawing features");
  return params.real(key);
}

}  // namespace rfscope
