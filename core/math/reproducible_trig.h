#pragma once
// sin x and cos x of radians, in double and in float, as fixed sequences of IEEE operations — no
// table, no fused multiply-add, no library call — so that a scalar loop and every SIMD lane
// (core/mechanisms/feature_map_kernels.cpp repeats these very steps on vectors) round identically
// on every machine and instruction set (see reproducibleExp). std::cos differs between libraries
// and, on one machine, between its FMA and non-FMA code.
//
// Double: x = n·π/2 + r with n the nearest integer to x·2/π and r = ((x - n·c1) - n·c2) - n·c3,
// π/2 split in fdlibm's parts (c1, c2: 33 bits each, so n·c1 and n·c2 are exact for |n| < 2^20);
// fdlibm's kernels (the polynomials of reproducibleSinCosOfTurns) give sin r and cos r, and n mod
// 4 rotates them. Within 2 ulp for |x| < 2^20·π/2 ≈ 1.6e6; beyond, the reduction's error grows
// as |x|·2^-53, the size of the argument's own rounding. |x| is clamped at 2^50 (≈ 1e15, where a
// double no longer resolves a turn).
// Float: the same in single precision with cephes' split (c1 = 1.5703125: 8 bits) and minimax
// polynomials, within 2 ulp for |x| < 8192; beyond, the double result rounded to float.

#include <cstdint>
#include <cstring>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_sincos.h"

namespace rfscope {

namespace reproducible_trig {
inline constexpr double kTwoOverPi = 6.36619772367581382433e-01;
inline constexpr double kPiOver2Part1 = 1.57079632673412561417e+00;
inline constexpr double kPiOver2Part2 = 6.07710050630396597660e-11;
inline constexpr double kPiOver2Part3 = 2.02226624879595063154e-21;
inline constexpr double kLargest = 0x1p50;

inline constexpr float kTwoOverPiF = 6.36619772e-01f;
inline constexpr float kRoundMagicF = 0x1.8p23f;  // x + 1.5·2^23 - 1.5·2^23 rounds x to an integer
inline constexpr float kPiOver2Part1F = 1.5703125f;
inline constexpr float kPiOver2Part2F = 4.837512969970703125e-4f;
inline constexpr float kPiOver2Part3F = 7.54978995489188216e-8f;
inline constexpr float kFloatRange = 8192.0f;  // |x| below: the float reduction is exact enough
inline constexpr float kS1F = -1.6666654611e-1f, kS2F = 8.3321608736e-3f, kS3F = -1.9515295891e-4f;
inline constexpr float kC1F = 4.166664568298827e-2f, kC2F = -1.388731625493765e-3f,
                       kC3F = 2.443315711809948e-5f;

inline std::int32_t floatBits(float x) {
  std::int32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
}  // namespace reproducible_trig

// sin x and cos x (radians).
inline void reproducibleSinCos(double x, double& sine, double& cosine) {
  using namespace reproducible_trig;
  namespace t = reproducible_sincos;
  namespace e = reproducible_exp;
  x = x < -kLargest ? -kLargest : x;
  x = x > kLargest ? kLargest : x;
  const double shifted = x * kTwoOverPi + e::kRoundMagic;
  const double n = shifted - e::kRoundMagic;
  const double r = ((x - n * kPiOver2Part1) - n * kPiOver2Part2) - n * kPiOver2Part3;
  const double z = r * r;
  const double sinPoly =
      t::kS1 + z * (t::kS2 + z * (t::kS3 + z * (t::kS4 + z * (t::kS5 + z * t::kS6))));
  const double cosPoly =
      t::kC1 + z * (t::kC2 + z * (t::kC3 + z * (t::kC4 + z * (t::kC5 + z * t::kC6))));
  const double s = r + r * z * sinPoly;
  const double c = 1.0 - (0.5 * z - z * z * cosPoly);
  const std::int64_t quadrant = (e::bitsOf(shifted) - e::bitsOf(e::kRoundMagic)) & 3;
  // (sin, cos) of qπ/2 + r: q = 0: (s, c); 1: (c, -s); 2: (-s, -c); 3: (-c, s).
  const bool swap = (quadrant & 1) != 0;
  const double a = swap ? c : s, b = swap ? s : c;
  sine = (quadrant & 2) != 0 ? -a : a;
  cosine = ((quadrant + 1) & 2) != 0 ? -b : b;
}

inline double reproducibleCos(double x) {
  double sine = 0, cosine = 0;
  reproducibleSinCos(x, sine, cosine);
  return cosine;
}

inline void reproducibleSinCos(float x, float& sine, float& cosine) {
  using namespace reproducible_trig;
  if (!(x > -kFloatRange && x < kFloatRange)) {
    double s = 0, c = 0;
    reproducibleSinCos(static_cast<double>(x), s, c);
    sine = static_cast<float>(s);
    cosine = static_cast<float>(c);
    return;
  }
  const float shifted = x * kTwoOverPiF + kRoundMagicF;
  const float n = shifted - kRoundMagicF;
  const float r = ((x - n * kPiOver2Part1F) - n * kPiOver2Part2F) - n * kPiOver2Part3F;
  const float z = r * r;
  const float s = r + r * z * (kS1F + z * (kS2F + z * kS3F));
  const float c = 1.0f - (0.5f * z - z * z * (kC1F + z * (kC2F + z * kC3F)));
  const std::int32_t quadrant = (floatBits(shifted) - floatBits(kRoundMagicF)) & 3;
  const bool swap = (quadrant & 1) != 0;
  const float a = swap ? c : s, b = swap ? s : c;
  sine = (quadrant & 2) != 0 ? -a : a;
  cosine = ((quadrant + 1) & 2) != 0 ? -b : b;
}

inline float reproducibleCos(float x) {
  float sine = 0, cosine = 0;
  reproducibleSinCos(x, sine, cosine);
  return cosine;
}

}  // namespace rfscope
