#pragma once
// A real number carried as sign · exp(logAbs), so that estimator values from e^-1000 to e^+1000
// survive. sign is -1, 0 or +1; a zero has logAbs = -inf.

#include <cmath>
#include <limits>

#include "core/math/host_device.h"
#include "core/math/reproducible_exp.h"

namespace rfscope {

struct SignedLog {
  double logAbs = -std::numeric_limits<double>::infinity();
  int sign = 0;

  RFSCOPE_HOST_DEVICE static SignedLog fromValue(double value) {
    if (value == 0) return {};
    return {std::log(std::fabs(value)), value > 0 ? 1 : -1};
  }
  // The plain value: may overflow to ±inf or underflow to 0.
  RFSCOPE_HOST_DEVICE double value() const { return sign == 0 ? 0.0 : sign * std::exp(logAbs); }
  // Total order of the represented reals (for quantiles).
  RFSCOPE_HOST_DEVICE bool operator<(const SignedLog& other) const {
    if (sign != other.sign) return sign < other.sign;
    if (sign == 0) return false;
    return sign > 0 ? logAbs < other.logAbs : logAbs > other.logAbs;
  }
};

// Sum of terms exp(envelopeLog) · factor with |factor| <= 1, kept as exp(maxEnvelope) · scaled so
// that no term overflows and a large term never needs the small ones exponentiated first.
// reproducibleExp: the SIMD trials (simd_fast_trials.cpp) repeat add() bit for bit.
struct EnvelopeSum {
  double maxEnvelope = -std::numeric_limits<double>::infinity();
  double scaled = 0;

  RFSCOPE_HOST_DEVICE void add(double envelopeLog, double factor) {
    if (factor == 0 || envelopeLog == -std::numeric_limits<double>::infinity()) return;
    if (envelopeLog > maxEnvelope) {
      scaled = scaled * reproducibleExp(maxEnvelope - envelopeLog) + factor;
      maxEnvelope = envelopeLog;
    } else {
      scaled += factor * reproducibleExp(envelopeLog - maxEnvelope);
    }
  }
  // log of the sum plus logOffset, with its sign.
  RFSCOPE_HOST_DEVICE SignedLog result(double logOffset) const {
    if (scaled == 0) return {};
    return {maxEnvelope + std::log(std::fabs(scaled)) + logOffset, scaled > 0 ? 1 : -1};
  }
};

}  // namespace rfscope
