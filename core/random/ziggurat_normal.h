#pragma once
// Standard normals by the ziggurat method (Marsaglia & Tsang 2000, in Doornik's 2005 ZIGNOR
// form with 256 layers): exact, and about four times faster than Box–Muller because 99% of draws
// need one 64-bit word and one multiplication — no logarithm, root or sine. Monte Carlo trials use
// it; data regimes keep PhiloxStream::normal() so that their pairs never change.
// The tables are computed once, in double precision; a device backend copies them to the device.

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/math/host_device.h"

namespace rfscope {

struct ZigguratTables {
  static constexpr int kLayers = 256;
  static constexpr double kTailStart = 3.6541528853610088;  // R
  static constexpr double kLayerArea = 0.00492867323399;    // V
  double x[kLayers + 1];  // layer edges, x[1] = R, x[256] = 0 (x[0] = V / f(R) for the base)
  double ratio[kLayers];  // x[i + 1] / x[i]

  static ZigguratTables compute() {
    ZigguratTables t{};
    double f = std::exp(-0.5 * kTailStart * kTailStart);
    t.x[0] = kLayerArea / f;
    t.x[1] = kTailStart;
    t.x[kLayers] = 0;
    for (int i = 2; i < kLayers; ++i) {
      t.x[i] = std::sqrt(-2 * std::log(kLayerArea / t.x[i - 1] + f));
      f = std::exp(-0.5 * t.x[i] * t.x[i]);
    }
    for (int i = 0; i < kLayers; ++i)
      t.ratio[i] = t.x[i + 1] / t.x[i];
    return t;
  }
};

// The host's tables (thread-safe one-time initialisation).
inline const ZigguratTables& zigguratTables() {
  static const ZigguratTables tables = ZigguratTables::compute();
  return tables;
}

// Whether x = u·x[layer] in the wedge of layer >= 1 lies under the density, for a uniform.
RFSCOPE_HOST_DEVICE inline bool zigguratWedgeAccepts(const ZigguratTables& t, int layer, double x,
                                                     double uniform) {
  const double f0 = std::exp(-0.5 * (t.x[layer] * t.x[layer] - x * x));
  const double f1 = std::exp(-0.5 * (t.x[layer + 1] * t.x[layer + 1] - x * x));
  return f1 + uniform * (f0 - f1) < 1.0;
}

// The rare slow path of zigguratNormal: the wedge of a layer, or the tail beyond R.
template <class Stream>
RFSCOPE_HOST_DEVICE double zigguratSlowPath(Stream& stream, const ZigguratTables& t, int layer,
                                            double u) {
  if (layer == 0) {  // the base layer's tail beyond R (Marsaglia 1964)
    double x = 0, y = 0;
    do {
      x = std::log(stream.uniform()) / ZigguratTables::kTailStart;
      y = std::log(stream.uniform());
    } while (-2 * y < x * x);
    return u < 0 ? x - ZigguratTables::kTailStart : ZigguratTables::kTailStart - x;
  }
  const double x = u * t.x[layer];
  if (zigguratWedgeAccepts(t, layer, x, stream.uniform())) return x;
  return std::numeric_limits<double>::quiet_NaN();  // rejected: draw again
}

// One standard normal from a stream with bits() and uniform() (PhiloxStream).
template <class Stream>
RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double zigguratNormal(Stream& stream,
                                                               const ZigguratTables& t) {
  for (;;) {
    const std::uint64_t word = stream.bits();
    const int layer = static_cast<int>(word & 0xFF);
    // u uniform in (-1, 1) from the top 53 bits (never exactly ±1 or 0).
    const double u = (static_cast<double>(word >> 11) + 0.5) * 0x1.0p-52 - 1.0;
    if (std::fabs(u) < t.ratio[layer]) return u * t.x[layer];
    const double x = zigguratSlowPath(stream, t, layer, u);
    if (x == x) return x;  // not NaN: accepted
  }
}

}  // namespace rfscope
