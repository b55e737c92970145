#pragma once
// Values the core keeps in the log domain, as JSON (the analytic and mc reports of the CLI and the
// Python module): JSON has no inf or nan, so what a double cannot hold becomes null or "-inf".

#include <nlohmann/json.hpp>

#include "core/math/signed_log.h"

namespace rfscope {

// A log value: a number, the string "-inf" for the log of an exact zero, or null for NaN and +inf
// (never printed as "nan"/"inf": callers report those as no value, with the reason).
nlohmann::json logValueToJson(double logValue);

// exp(logValue) when a double holds it as a normal number (or exactly 0), else null.
nlohmann::json plainFromLog(double logValue);

// sign · exp(logAbs) when a double holds it as a normal number (or exactly 0), else null.
nlohmann::json signedLogToJson(const SignedLog& value);

}  // namespace rfscope
