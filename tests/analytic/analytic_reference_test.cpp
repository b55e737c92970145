// Every mechanism's one-feature log-variance against the committed mpmath references: 1e-10 in
// the log (= 1e-10 relative in the variance), including the traps (kernel < 1e-308, variances
// > 1e308, x ≈ -y, |x - y| ≈ 1e-7, complex A, odd d).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/mechanisms/mechanism_registry.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

ParameterSet parametersFromJson(const Mechanism& mechanism, const nlohmann::json& json) {
  ParameterSet set;
  for (const auto& [key, value] : json.items()) {
    if (key == "s") {
      set.set("s", std::string(value.get<int>() > 0 ? "+1" : "-1"));
    } else if (value.is_boolean()) {
      set.set(key, value.get<bool>());
    } else if (value.is_number_integer() && key == "n") {
      set.set(key, value.get<std::int64_t>());
    } else {
      set.set(key, value.get<double>());
    }
  }
  EXPECT_TRUE(validateParameters(mechanism.parameters(), set).empty())
      << mechanism.info().id << " " << json.dump();
  return set;
}

TEST(AnalyticReference, EveryMechanismMatchesMpmath) {
  const auto& refs = analyticReferences();
  const auto& pairs = refs.at("pairs");
  std::map<std::string, double> worst;  // largest |Δ log Var| per mechanism
  std::size_t checked = 0;
  for (const auto& c : refs.at("cases")) {
    const std::string id = c.at("mechanism");
    const Mechanism* mechanism = findMechanism(id);
    ASSERT_NE(mechanism, nullptr) << "unknown mechanism " << id;
    const auto& pair = pairs.at(c.at("pair").get<std::size_t>());
    const Eigen::VectorXd x = vectorFromJson(pair.at("x")), y = vectorFromJson(pair.at("y"));
    const ParameterSet params = parametersFromJson(*mechanism, c.at("params"));
    const VarianceResult result = mechanism->logVariance(PairInput(x, y), params);
    const std::string label =
        id + " " + c.at("params").dump() + " on '" + pair.at("label").get<std::string>() + "'";
    ASSERT_TRUE(result.logVariance) << label << ": " << result.logVariance.reason();
    const double expected = referenceValue(c.at("log_variance"));
    if (std::isinf(expected)) {
      EXPECT_EQ(*result.logVariance, expected) << label;
    } else {
      // A log beyond ~1e6 cannot be held to 1e-10 in a double: allow 4 ulps of the log there.
      const double tolerance =
          std::max(test::kReferenceLogTolerance,
                   4 * std::abs(std::nextafter(expected, INFINITY) - expected));
      const double error = std::abs(*result.logVariance - expected);
      EXPECT_LE(error, tolerance) << label << ": got " << *result.logVariance << ", expected "
                                  << c.at("log_variance").get<std::string>();
      worst[id] = std::max(worst[id], std::isnan(error) ? INFINITY : error);
    }
    if (c.contains("expected_params")) {
      for (const auto& [key, value] : c.at("expected_params").items()) {
        const double want = referenceValue(value);
        ASSERT_TRUE(result.parametersUsed.contains(key)) << label << " reports no " << key;
        const double got = result.parametersUsed.real(key);
        // Closed-form optima to 1e-10; p* is a numerical minimum (the variance is flat there).
        const double tolerance = key == "p" ? 1e-5 : 1e-10;
        EXPECT_LE(std::abs(got - want), tolerance * std::max(1e-300, std::abs(want)))
            << label << ": " << key << " = " << got << ", expected " << value.get<std::string>();
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
  for (const auto& [id, error] : worst)
    std::printf("  %-16s max |Δ log Var| = %.2e\n", id.c_str(), error);
}

}  // namespace
}  // namespace rfscope
