#include "core/params/parameter_set.h"

#include "core/params/invalid_parameter.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

std::vector<ParameterSpec> specs() {
  return {
      integerParameter("d", "d", 64, 1, 1024, "dimension"),
      realParameter("sigma", "σ", 0.5, 1e-3, 10, "scale", true),
      booleanParameter("flag", "flag", false, "a flag"),
      choiceParameter("kernel", "kernel", {{"gaussian", "G"}, {"softmax", "S"}}, "gaussian", ""),
      multiChoiceParameter("mechanisms", "m", {{"trig", "T"}, {"pos", "P"}, {"oprf", "O"}},
                           {"trig"}, "")};
}

TEST(ParameterSet, DefaultsValidate) {
  EXPECT_TRUE(validateParameters(specs(), ParameterSet::defaults(specs())).empty());
}

TEST(ParameterSet, ParsesEveryType) {
  const auto s = specs();
  EXPECT_EQ(std::get<std::int64_t>(parseParameterValue(s[0], " 128 ")), 128);
  EXPECT_DOUBLE_EQ(std::get<double>(parseParameterValue(s[1], "2.5e-1")), 0.25);
  EXPECT_TRUE(std::get<bool>(parseParameterValue(s[2], "true")));
  EXPECT_EQ(std::get<std::string>(parseParameterValue(s[3], "softmax")), "softmax");
  const auto ids = std::get<std::vector<std::string>>(parseParameterValue(s[4], "pos, oprf,pos"));
  EXPECT_EQ(ids, (std::vector<std::string>{"pos", "oprf"}));
  const auto file = fileParameter("data-file", "file", "IDX files (*.idx)", "");
  EXPECT_EQ(std::get<std::string>(parseParameterValue(file, " /tmp/a b.idx")), " /tmp/a b.idx");
  EXPECT_TRUE(validateParameters({file}, ParameterSet::defaults({file})).empty());
}

// The message of the InvalidParameter that parsing `text` throws ("" if it parses).
std::string parseError(const ParameterSpec& spec, const std::string& text, std::string* key) {
  try {
    parseParameterValue(spec, text);
  } catch (const InvalidParameter& e) {
    *key = e.parameter();
    return e.what();
  }
  return "";
}

TEST(ParameterSet, RejectsMalformedValuesWithTheKeyInTheMessage) {
  const auto s = specs();
  std::string key;
  EXPECT_NE(parseError(s[0], "6.5", &key).find("'d'"), std::string::npos);
  EXPECT_EQ(key, "d");
  EXPECT_FALSE(parseError(s[1], "abc", &key).empty());
  EXPECT_FALSE(parseError(s[1], "inf", &key).empty());
  EXPECT_FALSE(parseError(s[2], "maybe", &key).empty());
  EXPECT_NE(parseError(s[3], "cosine", &key).find("gaussian, softmax"), std::string::npos);
  EXPECT_EQ(key, s[3].key);
  EXPECT_FALSE(parseError(s[4], "trig,nope", &key).empty());
}

TEST(ParameterSet, ValidationReportsEachViolatedRule) {
  ParameterSet set = ParameterSet::defaults(specs());
  set.set("d", std::int64_t{0});
  set.set("sigma", 20.0);
  set.set("mechanisms", std::vector<std::string>{});
  set.set("unknown", true);
  const auto errors = validateParameters(specs(), set);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].key, "unknown");
  EXPECT_EQ(errors[1].key, "d");
  EXPECT_NE(errors[1].message.find("outside [1, 1024]"), std::string::npos);
  EXPECT_EQ(errors[2].key, "sigma");
  EXPECT_EQ(errors[3].key, "mechanisms");
}

TEST(ParameterSet, MissingValueIsAnErrorUnlessOptional) {
  auto s = specs();
  ParameterSet set = ParameterSet::defaults(s);
  ParameterSet without;
  for (const auto& [key, value] : set.values())
    if (key != "sigma") without.set(key, value);
  EXPECT_EQ(validateParameters(s, without).size(), 1u);
  s[1].optional = true;
  EXPECT_TRUE(validateParameters(s, without).empty());
}

TEST(ParameterSet, FormatRoundTripsExactly) {
  const auto s = specs();
  for (const double value : {0.1, 1.0 / 3.0, 2.5e-3, 9.999999999999998}) {
    EXPECT_EQ(std::get<double>(parseParameterValue(s[1], formatParameterValue(value))), value);
  }
  EXPECT_EQ(formatParameterValue(std::vector<std::string>{"trig", "pos"}), "trig,pos");
}

}  // namespace
}  // namespace rfscope
