#pragma once
// Two independent standard normals from two uniforms (Box & Muller 1958):
// r = √(-2 ln u₁), (r cos 2πu₂, r sin 2πu₂). With reproducibleLog and reproducibleSinCosOfTurns
// the values are bit-identical on every machine, scalar or SIMD. No rejection: every normal takes
// the same words, so SIMD lanes never fall out of step. The uniforms' 52 bits put |r| below 8.57
// (P(|N(0,1)| > 8.57) = 1e-17: beyond any run's reach).

#include <cmath>

#include "core/math/host_device.h"
#include "core/math/reproducible_log.h"
#include "core/math/reproducible_sincos.h"

namespace rfscope {

RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE void boxMullerPair(double radiusUniform,
                                                            double angleUniform, double& first,
                                                            double& second) {
  const double radius = std::sqrt(-2.0 * reproducibleLog(radiusUniform));
  double sine = 0, cosine = 0;
  reproducibleSinCosOfTurns(angleUniform, sine, cosine);
  first = radius * cosine;
  second = radius * sine;
}

// The normals of a stream with uniform() (TrialStream, and the SIMD trials' per-lane streams, which
// must draw exactly alike): a pair from the next two uniforms, the radius's first.
template <class Stream>
RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE void drawNormalPair(Stream& stream, double& first,
                                                             double& second) {
  const double radiusUniform = stream.uniform();
  boxMullerPair(radiusUniform, stream.uniform(), first, second);
}

// One normal, the first of a pair (the second is dropped): it depends on no earlier draw, which
// rejection samplers rely on (a rejected try restarts like a new call).
template <class Stream>
RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double drawNormal(Stream& stream) {
  double first = 0, second = 0;
  drawNormalPair(stream, first, second);
  return first;
}

}  // namespace rfscope
