#pragma once
// ln x as one fixed sequence of IEEE double operations — no table, no fused multiply-add, no
// library call — so that a scalar trial and a SIMD lane (simd_fast_trials.cpp repeats these very
// steps on vectors) round identically on every machine and instruction set, as reproducibleExp.
// The algorithm of fdlibm's e_log.c in musl's branch-free form: x = 2^k m with m in
// [√2/2, √2) by integer arithmetic on the bits, f = m - 1, s = f / (2 + f), and
// ln m = f - ½f² + s(½f² + R(s²)) with fdlibm's degree-14 minimax R; k ln 2 is added in two
// parts (kLn2Hi·k is exact). Within 1 ulp for positive normal x; the callers pass uniforms in
// (0, 1), so zeros, subnormals, infinities and NaN are not handled.

#include <cstdint>

#include "core/math/host_device.h"
#include "core/math/reproducible_exp.h"

namespace rfscope {

namespace reproducible_log {
// Moves the mantissa boundary from 1 to √2/2 (0x3fe6a09e: the high word of √2/2).
inline constexpr std::int64_t kOffset = (std::int64_t{0x3ff00000} - 0x3fe6a09e) << 32;
inline constexpr std::int64_t kMantissaMask = (std::int64_t{1} << 52) - 1;
inline constexpr std::int64_t kLowBits = std::int64_t{0x3fe6a09e} << 32;
inline constexpr double kLg1 = 6.666666666666735130e-01, kLg2 = 3.999999999940941908e-01,
                        kLg3 = 2.857142874366239149e-01, kLg4 = 2.222219843214978396e-01,
                        kLg5 = 1.818357216161805012e-01, kLg6 = 1.531383769920937332e-01,
                        kLg7 = 1.479819860511658591e-01;
}  // namespace reproducible_log

// ln x for positive normal x.
RFSCOPE_HOST_DEVICE inline double reproducibleLog(double x) {
  using namespace reproducible_log;
  const std::int64_t shifted = reproducible_exp::bitsOf(x) + kOffset;
  const double k = static_cast<double>((shifted >> 52) - 1023);
  const double m = reproducible_exp::fromBits((shifted & kMantissaMask) + kLowBits);
  const double f = m - 1.0;
  const double halfSquare = 0.5 * f * f;
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (kLg2 + w * (kLg4 + w * kLg6));
  const double t2 = z * (kLg1 + w * (kLg3 + w * (kLg5 + w * kLg7)));
  const double r = t2 + t1;
  return s * (halfSquare + r) + k * reproducible_exp::kLn2Lo - halfSquare + f +
         k * reproducible_exp::kLn2Hi;
}

}  // namespace rfscope
