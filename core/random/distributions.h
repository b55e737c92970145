#pragma once
// Non-uniform variates drawn from any stream with uniform() and normal() (PhiloxStream). Exact
// algorithms (no approximations); rejection loops consume a data-dependent number of values, which
// keeps results reproducible because every trial owns its own counter-based stream.
// Allocation-free and exception-free, so they also compile as device code.

#include <cmath>
#include <cstdint>

#include "core/math/host_device.h"
#include "core/random/box_muller.h"

namespace rfscope {

// The squeeze of a Marsaglia–Tsang try: accepted without a logarithm when u < 1 - k x⁴. The exact
// test is log u < h(x) = d φ(t), t = c x = x / √(9d), φ(t) = 3 [ln(1 + t) - t + t²/2 - t³/3]
// = -3 Σ_{j≥4} (-t)^j / j ≥ -0.75 t⁴ / (1 - |t|) for t < 0 and ≥ -0.75 t⁴ for t ≥ 0; so for t ≥
// -1/2 (v = (1 + t)³ ≥ 1/8) h ≥ -1.5 d t⁴ = -x⁴ / (54 d), and log u ≤ u - 1 makes u < 1 - x⁴ / (54
// d) an exact acceptance. Marsaglia and Tsang's own squeeze (k = 0.0331, for every shape ≥ 1) is 57
// times coarser at d = 31.7 (χ²₆₄): there the logarithm is needed for 0.2% of tries, not 10%.
// Tries with t < -1/2 (x below -8.5 at d = 31.7, a third of a standard deviation below 0 at
// d = 2/3) go to the logarithm.
RFSCOPE_HOST_DEVICE inline double gammaSqueezeCoefficient(double d) {
  return 1.0 / (54.0 * d);
}

// Whether a Marsaglia–Tsang try with normal x, v = (1 + c x)³ > 0 and uniform u is accepted.
// squeeze: gammaSqueezeCoefficient(d).
RFSCOPE_HOST_DEVICE inline bool gammaTryAccepted(double x, double v, double u, double d,
                                                 double squeeze) {
  const double x2 = x * x;
  if (v >= 0.125 && u < 1.0 - squeeze * x2 * x2) return true;  // no logarithm needed
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
  const double squeeze = gammaSqueezeCoefficient(d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = stream.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = stream.uniform();
    if (gammaTryAccepted(x, v, u, d, squeeze)) return boost * d * v;
  }
}

// χ²_k = 2·Gamma(k/2); 0 for k = 0.
template <class Stream>
RFSCOPE_HOST_DEVICE double chiSquareVariate(Stream& stream, double degreesOfFreedom) {
  if (degreesOfFreedom <= 0) return 0.0;
  return 2.0 * gammaVariate(stream, 0.5 * degreesOfFreedom);
}

// Two independent χ²_k variates whose first Marsaglia–Tsang tries share one Box–Muller pair:
// normals x₁, x₂ from the next two uniforms, then the uniforms u₁, u₂ — two tries for the words
// and the logarithm, sine and cosine of one pair, where two calls draw two pairs and drop a normal
// of each. A variate whose first try fails (v ≤ 0, or rejected) goes on as a new chiSquareVariate
// call, the first variate's before the second's: tries are independent, so each variate is
// Marsaglia–Tsang's still, and the two are independent. k < 2 (the boost): two calls.
template <class Stream>
RFSCOPE_HOST_DEVICE void chiSquareVariatePair(Stream& stream, double degreesOfFreedom,
                                              double& first, double& second) {
  if (degreesOfFreedom < 2) {
    first = chiSquareVariate(stream, degreesOfFreedom);
    second = chiSquareVariate(stream, degreesOfFreedom);
    return;
  }
  const double d = 0.5 * degreesOfFreedom - 1.0 / 3.0;  // as gammaVariate computes them
  const double c = 1.0 / std::sqrt(9.0 * d);
  const double squeeze = gammaSqueezeCoefficient(d);
  double x[2] = {0, 0};
  drawNormalPair(stream, x[0], x[1]);
  const double u[2] = {stream.uniform(), stream.uniform()};
  double* const out[2] = {&first, &second};
  for (int j = 0; j < 2; ++j) {
    double v = 1.0 + c * x[j];
    const bool positive = v > 0.0;
    v = v * v * v;
    *out[j] = positive && gammaTryAccepted(x[j], v, u[j], d, squeeze)
                  ? 2.0 * (d * v)
                  : chiSquareVariate(stream, degreesOfFreedom);
  }
}

// χ²_k variates for a loop over `count` items: items 2m and 2m + 1 from one chiSquareVariatePair,
// a last odd item alone.
template <class Stream>
class PairedChiSquares {
 public:
  RFSCOPE_HOST_DEVICE PairedChiSquares(Stream& stream, double degreesOfFreedom, std::int64_t count)
      : stream_(&stream), degrees_(degreesOfFreedom), count_(count) {}

  RFSCOPE_HOST_DEVICE double next() {
    const std::int64_t i = index_++;
    if (i % 2 == 1) return spare_;
    double first = 0;
    if (i + 1 < count_)
      chiSquareVariatePair(*stream_, degrees_, first, spare_);
    else
      first = chiSquareVariate(*stream_, degrees_);
    return first;
  }

 private:
  Stream* stream_;
  double degrees_;
  std::int64_t count_;
  std::int64_t index_ = 0;
  double spare_ = 0;
};

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
