#pragma once
// sin 2πu and cos 2πu as one fixed sequence of IEEE double operations — no table, no fused
// multiply-add, no library call — so that a scalar trial and a SIMD lane round identically (see
// reproducibleExp). The argument is a fraction of a turn, so the reduction is exact: 4u = q + f
// with q the nearest integer and |f| <= ½ (both exact), the angle within the quadrant is
// x = f·π/2 (one rounding), and fdlibm's kernels (k_sin.c, k_cos.c: minimax polynomials for
// |x| <= π/4) give sin x and cos x; q mod 4 rotates them. Within 2 ulp of the true values.

#include <cstdint>

#include "core/math/host_device.h"
#include "core/math/reproducible_exp.h"

namespace rfscope {

namespace reproducible_sincos {
inline constexpr double kHalfPi = 1.57079632679489661923;
inline constexpr double kS1 = -1.66666666666666324348e-01, kS2 = 8.33333333332248946124e-03,
                        kS3 = -1.98412698298579493134e-04, kS4 = 2.75573137070700676789e-06,
                        kS5 = -2.50507602534068634195e-08, kS6 = 1.58969099521155010221e-10;
inline constexpr double kC1 = 4.16666666666666019037e-02, kC2 = -1.38888888888741095749e-03,
                        kC3 = 2.48015872894767294178e-05, kC4 = -2.75573143513906633035e-07,
                        kC5 = 2.08757232129817482790e-09, kC6 = -1.13596475577881948265e-11;
}  // namespace reproducible_sincos

// sin 2πu and cos 2πu for 0 <= u <= 1.
RFSCOPE_HOST_DEVICE inline void reproducibleSinCosOfTurns(double u, double& sine, double& cosine) {
  using namespace reproducible_sincos;
  const double t = 4.0 * u;
  const double shifted = t + reproducible_exp::kRoundMagic;
  const double q = shifted - reproducible_exp::kRoundMagic;
  const double x = (t - q) * kHalfPi;
  const double z = x * x;
  const double sinPoly = kS1 + z * (kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6))));
  const double cosPoly = kC1 + z * (kC2 + z * (kC3 + z * (kC4 + z * (kC5 + z * kC6))));
  const double s = x + x * z * sinPoly;
  const double c = 1.0 - (0.5 * z - z * z * cosPoly);
  const std::int64_t quadrant = (reproducible_exp::bitsOf(shifted) -
                                 reproducible_exp::bitsOf(reproducible_exp::kRoundMagic)) &
                                3;
  // (sin, cos) of qπ/2 + x: q = 0: (s, c); 1: (c, -s); 2: (-s, -c); 3: (-c, s).
  const bool swap = (quadrant & 1) != 0;
  const double a = swap ? c : s, b = swap ? s : c;
  sine = (quadrant & 2) != 0 ? -a : a;
  cosine = ((quadrant + 1) & 2) != 0 ? -b : b;
}

}  // namespace rfscope
