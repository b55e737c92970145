#pragma once
// Non-uniform variates drawn from any stream with uniform() and normal() (PhiloxStream). Exact
// algorithms (no approximations); rejection loops consume a data-dependent number of values, which
// keeps results reproducible because every trial owns its own counter-based stream.
// Allocation-free and exception-free, so they also compile as device code.

#include <cmath>
#include <cstdint>

#include "core/math/host_device.h"

namespace rfscope {

// Whether a Marsaglia–Tsang try with normal x, v = (1 + c x)³ > 0 and uniform u is accepted.
RFSCOPE_HOST_DEVICE inline bool gammaTryAccepted(double x, double v, double u, double d) {
  const double x2 = x * x;
  if (u < 1.0 - 0.0331 * x2 * x2) return true;  // squeeze: no logarithm needed
  return std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v));
}

// Gamma(shape, 1) for shape > 0: Marsaglia & Tsang (2000), with the boost
// Gamma(a) = Gamma(a + 1) · U^{1/a} for a < 1. A try keeps no state: after a rejected one, the
// variate goes on exactly like a new call for shape >= 1 (the SIMD trials rely on it).
template <class Stream>
RFSCOPE_HOST_DEVICE double gammaVariate(Stream& stream, double shape) {
  double boost = 1.0;
  if (shape < 1.0) {
    boost = std::pow(stream.uniform(), 1.0 / shape);
    shape += 1.0;
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = stream.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = stream.uniform();
    if (gammaTryAccepted(x, v, u, d)) return boost * d * v;
  }
}

// χ²_k = 2·Gamma(k/2); 0 for k = 0.
template <class Stream>
RFSCOPE_HOST_DEVICE double chiSquareVariate(Stream& stream, double degreesOfFreedom) {
  if (degreesOfFreedom <= 0) return 0.0;
  return 2.0 * gammaVariate(stream, 0.5 * degreesOfFreedom);
}

// Poisson(λ): inversion by sequential search for λ < 12 (about λ + 1 uniforms' worth of work on
// one uniform), the transformed rejection PTRS of Hörmann (1993) otherwise.
template <class Stream>
RFSCOPE_HOST_DEVICE std::int64_t poissonVariate(Stream& stream, double lambda) {
  if (lambda <= 0) return 0;
  if (lambda < 12.0) {
    double u = stream.uniform();
    double p = std::exp(-lambda);
    std::int64_t k = 0;
    while (u > p) {
      u -= p;
      ++k;
      p *= lambda / static_cast<double>(k);
      if (p <= 0) break;  // tail beyond double precision: k is already astronomically unlikely
    }
    return k;
  }
  const double logLambda = std::log(lambda);
  const double b = 0.931 + 2.53 * std::sqrt(lambda);
  const double a = -0.059 + 0.02483 * b;
  const double inverseAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = stream.uniform() - 0.5;
    const double v = stream.uniform();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v * inverseAlpha / (a / (us * us) + b)) <=
        -lambda + k * logLambda - std::lgamma(k + 1))
      return static_cast<std::int64_t>(k);
  }
}

// Geometric on {0, 1, 2, ...} with P(k) = p (1 - p)^k, by inversion.
template <class Stream>
RFSCOPE_HOST_DEVICE std::int64_t geometricVariate(Stream& stream, double p) {
  if (p >= 1.0) return 0;
  return static_cast<std::int64_t>(std::floor(std::log(stream.uniform()) / std::log1p(-p)));
}

}  // namespace rfscope
