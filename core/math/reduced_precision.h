#pragma once
// Rounding a double to the numbers of a narrower floating-point format, as the hardware stores
// them: IEEE binary16 (float16: 11 significant bits, exponents -14..15, subnormals down to 2^-24,
// largest finite 65504; values from 65520 on round to infinity), bfloat16 (8 significant bits,
// float32's exponent range: subnormals down to 2^-133, largest finite (2 - 2^-7)·2^127) and
// binary32 (float). Round to nearest, ties to even, one rounding from the double — so an
// operation whose exact result a double holds (the product or sum of two float16 or bfloat16
// numbers, their squares, a float32 product of two of them) is rounded exactly as the hardware
// rounds it. NaN and ±inf pass through. The result is a double holding a number of the format.
//
// Checked against NumPy's float16 and PyTorch's bfloat16 conversions of float32 inputs
// (tests/math/reduced_precision_test.cpp, tests/reference/reduced_precision_references.json).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace rfscope {

enum class Precision { Float16, Bfloat16, Float32, Float64 };

inline const char* precisionId(Precision p) {
  switch (p) {
    case Precision::Float16:
      return "fp16";
    case Precision::Bfloat16:
      return "bf16";
    case Precision::Float32:
      return "fp32";
    case Precision::Float64:
      return "fp64";
  }
  return "";
}

inline const char* precisionName(Precision p) {
  switch (p) {
    case Precision::Float16:
      return "float16";
    case Precision::Bfloat16:
      return "bfloat16";
    case Precision::Float32:
      return "float32";
    case Precision::Float64:
      return "float64";
  }
  return "";
}

namespace reduced_precision {

// A format narrower than double: `bits` stored significand bits, `minExponent` the exponent of
// the smallest normal number, `largest` the largest finite number.
struct Format {
  int bits;
  int minExponent;
  double largest;
};

inline constexpr Format kFloat16{10, -14, 65504.0};
inline constexpr Format kBfloat16{7, -126, 0x1.fep127};
inline constexpr Format kFloat32{23, -126, 0x1.fffffep127};

inline double roundToFormat(double x, const Format& f) {
  std::uint64_t u = 0;
  std::memcpy(&u, &x, sizeof u);
  const int biased = static_cast<int>((u >> 52) & 0x7ff);
  if (biased == 0x7ff) return x;  // NaN, ±inf
  const int exponent = biased - 1023;
  if (exponent < f.minExponent) {
    // Subnormal in the format (or zero): a fixed quantum 2^(minExponent - bits). x / quantum is
    // exact (a power of two), nearbyint rounds it to the nearest integer, ties to even.
    const double quantum = std::ldexp(1.0, f.minExponent - f.bits);
    return std::nearbyint(x / quantum) * quantum;
  }
  // Normal: clear the low 52 - bits significand bits, rounding to nearest even (a carry into
  // the exponent is the right result).
  const int drop = 52 - f.bits;
  const std::uint64_t half = (std::uint64_t{1} << (drop - 1)) - 1;
  u += half + ((u >> drop) & 1);
  u &= ~((std::uint64_t{1} << drop) - 1);
  double r = 0;
  std::memcpy(&r, &u, sizeof r);
  if (std::fabs(r) > f.largest) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

}  // namespace reduced_precision

inline double roundToFloat16(double x) {
  return reduced_precision::roundToFormat(x, reduced_precision::kFloat16);
}
inline double roundToBfloat16(double x) {
  return reduced_precision::roundToFormat(x, reduced_precision::kBfloat16);
}
inline double roundToFloat32(double x) {
  return static_cast<double>(static_cast<float>(x));
}

inline double roundTo(Precision p, double x) {
  switch (p) {
    case Precision::Float16:
      return roundToFloat16(x);
    case Precision::Bfloat16:
      return roundToBfloat16(x);
    case Precision::Float32:
      return roundToFloat32(x);
    case Precision::Float64:
      return x;
  }
  return x;
}

// The smallest positive normal number of the format.
inline double smallestNormal(Precision p) {
  switch (p) {
    case Precision::Float16:
      return 0x1p-14;
    case Precision::Bfloat16:
    case Precision::Float32:
      return 0x1p-126;
    case Precision::Float64:
      return std::numeric_limits<double>::min();
  }
  return 0;
}

// The largest finite number of the format.
inline double largestFinite(Precision p) {
  switch (p) {
    case Precision::Float16:
      return 65504.0;
    case Precision::Bfloat16:
      return 0x1.fep127;
    case Precision::Float32:
      return 0x1.fffffep127;
    case Precision::Float64:
      return std::numeric_limits<double>::max();
  }
  return 0;
}

}  // namespace rfscope
