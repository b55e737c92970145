#pragma once
// The committed mpmath references (tests/reference/analytic_references.json), loaded once.

#include <cstdlib>
#include <fstream>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace rfscope::test {

// Agreement asked of an analytic log-domain result with its mpmath reference (absolute, in log).
inline constexpr double kReferenceLogTolerance = 1e-10;

inline const nlohmann::json& analyticReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/analytic_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

inline Eigen::VectorXd vectorFromJson(const nlohmann::json& values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    v[static_cast<Eigen::Index>(i)] = values[i].get<double>();
  return v;
}

// A reference value: a decimal string with ~40 digits, or "-inf"/"inf".
inline double referenceValue(const nlohmann::json& value) {
  return std::strtod(value.get<std::string>().c_str(), nullptr);
}

}  // namespace rfscope::test
