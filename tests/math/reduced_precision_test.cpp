// core/math/reduced_precision.h against NumPy's float16 and PyTorch's bfloat16
// (tests/reference/reduced_precision_references.json, generate_reduced_precision_references.py):
// every rounding of the committed float32 inputs — random values over both formats' ranges, ties
// of both parities, the overflow thresholds, subnormals, zeros, infinities, NaN — bit for bit,
// and float16 sums and products as the double result rounded once.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/math/reduced_precision.h"

namespace rfscope {
namespace {

const nlohmann::json& references() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/reduced_precision_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

double parsed(const std::string& text) {
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  return std::strtod(text.c_str(), nullptr);  // hexadecimal floating point, exact
}

std::vector<double> column(const nlohmann::json& values) {
  std::vector<double> out;
  for (const auto& v : values)
    out.push_back(parsed(v.get<std::string>()));
  return out;
}

// Equal as numbers of the format: the same value and sign, or both NaN.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

TEST(ReducedPrecision, Float16AsNumPyRoundsIt) {
  const auto inputs = column(references()["inputs"]);
  const auto expected = column(references()["float16"]);
  ASSERT_EQ(inputs.size(), expected.size());
  ASSERT_GT(inputs.size(), 4000u);
  int differing = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!same(roundToFloat16(inputs[i]), expected[i]) && ++differing <= 10)
      ADD_FAILURE() << std::hexfloat << inputs[i] << ": " << roundToFloat16(inputs[i]) << ", NumPy "
                    << expected[i];
  EXPECT_EQ(differing, 0);
}

TEST(ReducedPrecision, Bfloat16AsTorchRoundsIt) {
  const auto inputs = column(references()["inputs"]);
  const auto expected = column(references()["bfloat16"]);
  ASSERT_EQ(inputs.size(), expected.size());
  int differing = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!same(roundToBfloat16(inputs[i]), expected[i]) && ++differing <= 10)
      ADD_FAILURE() << std::hexfloat << inputs[i] << ": " << roundToBfloat16(inputs[i])
                    << ", torch " << expected[i];
  EXPECT_EQ(differing, 0);
}

TEST(ReducedPrecision, Float16SumsAndProductsRoundOnce) {
  const nlohmann::json& sums = references()["float16_sums"];
  const auto a = column(sums["a"]), b = column(sums["b"]);
  const auto sum = column(sums["sum"]), product = column(sums["product"]);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(same(roundToFloat16(a[i] + b[i]), sum[i])) << a[i] << " + " << b[i];
    EXPECT_TRUE(same(roundToFloat16(a[i] * b[i]), product[i])) << a[i] << " * " << b[i];
  }
}

TEST(ReducedPrecision, Limits) {
  EXPECT_EQ(roundToFloat16(65504.0), 65504.0);
  EXPECT_EQ(roundToFloat16(65519.999), 65504.0);
  EXPECT_TRUE(std::isinf(roundToFloat16(65520.0)));
  EXPECT_EQ(roundToFloat16(0x1p-25), 0.0);             // the tie rounds to even: 0
  EXPECT_EQ(roundToFloat16(0x1.000001p-25), 0x1p-24);  // just above: the smallest subnormal
  EXPECT_EQ(roundToBfloat16(1.0 + 0x1p-8), 1.0);       // tie to even
  EXPECT_EQ(roundToBfloat16(1.0 + 0x1.8p-7), 1.0 + 0x1p-6);
  EXPECT_TRUE(std::isinf(roundToBfloat16(0x1.ffp127)));
  EXPECT_EQ(roundToFloat32(1.0 + 0x1p-24), 1.0);
  EXPECT_EQ(roundTo(Precision::Float64, 1.0 + 0x1p-52), 1.0 + 0x1p-52);
}

}  // namespace
}  // namespace rfscope
