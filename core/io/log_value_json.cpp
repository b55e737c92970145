#include "core/io/log_value_json.h"

#include <cmath>
#include <limits>

#include "core/math/log_math.h"

namespace rfscope {

nlohmann::json logValueToJson(double logValue) {
  if (logValue == -std::numeric_limits<double>::infinity()) return "-inf";
  return std::isfinite(logValue) ? nlohmann::json(logValue) : nlohmann::json(nullptr);
}

nlohmann::json plainFromLog(double logValue) {
  if (logValue == kNegativeInfinity) return 0.0;
  const double value = std::exp(logValue);
  return std::isnormal(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json signedLogToJson(const SignedLog& value) {
  const double plain = value.value();
  return std::isfinite(plain) && (plain == 0 || std::isnormal(plain)) ? nlohmann::json(plain)
                                                                      : nlohmann::json(nullptr);
}

}  // namespace rfscope
