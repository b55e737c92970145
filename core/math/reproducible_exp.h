#pragma once
// e^x as one fixed sequence of IEEE double operations — no table, no fused multiply-add, no library
// call — so that a scalar trial and a SIMD lane (simd_fast_trials.cpp repeats these very steps on
// vectors) round identically on every machine and every instruction set. std::exp differs between
// libraries and, on one machine, between its FMA and non-FMA code.
// Cody–Waite reduction x = k ln 2 + r, |r| <= ln2/2 (k·ln2Hi is exact: ln2Hi has 32 significant
// bits), a degree-12 minimax polynomial for e^r (the coefficients of Highway's Exp) by Estrin,
// and 2^k applied as two exact powers of two so that subnormal results and k = 1024 need no
// branch. Within 1 ulp of e^x; 0 below -745.14, +inf above 709.79, NaN for NaN.

#include <cstdint>
#include <cstring>

#include "core/math/host_device.h"

namespace rfscope {

namespace reproducible_exp {
inline constexpr double kLowest = -746.0;  // e^x rounds to 0 below -745.14: clamp, keep k small
inline constexpr double kHighest = 710.0;  // and to +inf above 709.79
inline constexpr double kLog2e = 1.4426950408889634;
inline constexpr double kRoundMagic = 0x1.8p52;  // x + 1.5·2^52 - 1.5·2^52 rounds x to an integer
inline constexpr double kLn2Hi = 6.93147180369123816490e-01;
inline constexpr double kLn2Lo = 1.90821492927058770002e-10;
// e^r ≈ 1 + r + r² P(r), P(r) = kP0 + kP1 r + … + kP10 r^10 (scalars: device code reads them).
inline constexpr double kP0 = 0.5, kP1 = 0.166666666666666851703837,
                        kP2 = 0.0416666666666665047591422, kP3 = 0.00833333333331652721664984,
                        kP4 = 0.00138888888889774492207962, kP5 = 0.000198412698960509205564975,
                        kP6 = 2.4801587159235472998791e-5, kP7 = 2.75572362911928827629423e-6,
                        kP8 = 2.75573911234900471893338e-7, kP9 = 2.51112930892876518610661e-8,
                        kP10 = 2.08860621107283687536341e-9;

RFSCOPE_HOST_DEVICE inline std::int64_t bitsOf(double x) {
#if defined(__CUDA_ARCH__)
  return __double_as_longlong(x);
#else
  std::int64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
#endif
}

RFSCOPE_HOST_DEVICE inline double fromBits(std::int64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(bits);
#else
  double x = 0;
  std::memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

// 2^e for -1022 <= e <= 1023.
RFSCOPE_HOST_DEVICE inline double powerOfTwo(std::int64_t e) {
  return fromBits(static_cast<std::int64_t>(static_cast<std::uint64_t>(e + 1023) << 52));
}
}  // namespace reproducible_exp

RFSCOPE_HOST_DEVICE inline double reproducibleExp(double x) {
  using namespace reproducible_exp;
  x = x < kLowest ? kLowest : x;  // compares, not fmin/fmax: NaN stays NaN
  x = x > kHighest ? kHighest : x;
  const double shifted = x * kLog2e + kRoundMagic;
  const double k = shifted - kRoundMagic;
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // P by Estrin's scheme: a short dependency chain, so that consecutive e^x overlap.
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double p03 = (kP0 + kP1 * r) + (kP2 + kP3 * r) * r2;
  const double p47 = (kP4 + kP5 * r) + (kP6 + kP7 * r) * r2;
  const double p810 = (kP8 + kP9 * r) + kP10 * r2;
  const double p = (p03 + p47 * r4) + p810 * r8;
  const double y = 1.0 + (r + r2 * p);
  const std::int64_t exponent = bitsOf(shifted) - bitsOf(kRoundMagic);  // k as an integer
  const std::int64_t half = exponent >> 1;
  return y * powerOfTwo(half) * powerOfTwo(exponent - half);
}

}  // namespace rfscope
