#pragma once
// Mergeable count, mean and central moments M2..M4 of values that may span e^-1000..e^+1000.
// Values are stored relative to a common scale e^logScale, chosen as the largest magnitude seen
// (up to a factor e² of slack), so nothing overflows; when the scale grows, the stored sums shrink
// by the exact power of the ratio, and values far below the largest ones are correctly negligible.
// Merging follows Pébay (2008); updates and merges are deterministic, so a fixed merge order gives
// bit-identical results however the work was split.

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/math/host_device.h"
#include "core/math/signed_log.h"

namespace rfscope {

struct MomentAccumulator {
  std::int64_t count = 0;
  double logScale = -std::numeric_limits<double>::infinity();
  double mean = 0;  // of value · e^-logScale
  double m2 = 0, m3 = 0, m4 = 0;
  SignedLog largest;  // largest |value| seen
  SignedLog minimum, maximum;
  bool hasExtremes = false;

  // Changes the scale to newScale >= logScale.
  RFSCOPE_HOST_DEVICE void rescale(double newScale) {
    const double r = count == 0 ? 0.0 : std::exp(logScale - newScale);
    const double r2 = r * r;
    mean *= r;
    m2 *= r2;
    m3 *= r2 * r;
    m4 *= r2 * r2;
    logScale = newScale;
  }

  RFSCOPE_HOST_DEVICE void add(const SignedLog& value) {
    if (!hasExtremes) {
      minimum = maximum = value;
      hasExtremes = true;
    } else {
      if (value < minimum) minimum = value;
      if (maximum < value) maximum = value;
    }
    if (value.sign != 0 && (largest.sign == 0 || value.logAbs > largest.logAbs)) largest = value;
    if (value.sign != 0 && !(value.logAbs <= logScale + 2.0)) rescale(value.logAbs);
    const double x = value.sign == 0 ? 0.0 : value.sign * std::exp(value.logAbs - logScale);
    const double n1 = static_cast<double>(count);
    ++count;
    const double n = static_cast<double>(count);
    const double delta = x - mean;
    const double deltaN = delta / n;
    const double deltaN2 = deltaN * deltaN;
    const double term = delta * deltaN * n1;
    mean += deltaN;
    m4 += term * deltaN2 * (n * n - 3 * n + 3) + 6 * deltaN2 * m2 - 4 * deltaN * m3;
    m3 += term * deltaN * (n - 2) - 3 * deltaN * m2;
    m2 += term;
  }

  RFSCOPE_HOST_DEVICE void merge(const MomentAccumulator& other) {
    if (other.count == 0) return;
    if (count == 0) {
      *this = other;
      return;
    }
    if (!hasExtremes || other.minimum < minimum) minimum = other.minimum;
    if (!hasExtremes || maximum < other.maximum) maximum = other.maximum;
    hasExtremes = true;
    if (other.largest.sign != 0 && (largest.sign == 0 || other.largest.logAbs > largest.logAbs))
      largest = other.largest;
    MomentAccumulator b = other;
    if (b.logScale > logScale)
      rescale(b.logScale);
    else if (b.logScale < logScale)
      b.rescale(logScale);
    const double na = static_cast<double>(count), nb = static_cast<double>(b.count);
    const double inverseN = 1.0 / (na + nb);  // one division instead of seven
    const double inverseN2 = inverseN * inverseN;
    const double delta = b.mean - mean;
    const double delta2 = delta * delta;
    const double nab = na * nb;
    const double m2New = m2 + b.m2 + delta2 * nab * inverseN;
    const double m3New = m3 + b.m3 + delta2 * delta * nab * (na - nb) * inverseN2 +
                         3 * delta * (na * b.m2 - nb * m2) * inverseN;
    const double m4New = m4 + b.m4 +
                         delta2 * delta2 * nab * (na * na - nab + nb * nb) * inverseN2 * inverseN +
                         6 * delta2 * (na * na * b.m2 + nb * nb * m2) * inverseN2 +
                         4 * delta * (na * b.m3 - nb * m3) * inverseN;
    mean += delta * nb * inverseN;
    m2 = m2New;
    m3 = m3New;
    m4 = m4New;
    count += b.count;
  }

  // Unbiased sample variance as a log (−inf when zero or fewer than two values).
  RFSCOPE_HOST_DEVICE double logVariance() const {
    if (count < 2 || !(m2 > 0)) return -std::numeric_limits<double>::infinity();
    return std::log(m2 / static_cast<double>(count - 1)) + 2 * logScale;
  }
  RFSCOPE_HOST_DEVICE SignedLog logMean() const {
    if (count == 0 || mean == 0) return {};
    return {std::log(std::fabs(mean)) + logScale, mean > 0 ? 1 : -1};
  }
};

}  // namespace rfscope
