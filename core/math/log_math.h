#pragma once
// Log-domain arithmetic. Variances in RFScope span e^-1000 .. e^+1000, so every quantity that can
// leave the range of a double is carried as its natural logarithm and combined with these helpers.

#include <cmath>
#include <limits>

namespace rfscope {

inline constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kLn2 = 0.693147180559945309417232121458176568;

// log(e^a + e^b) without overflow.
inline double logAddExp(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == kNegativeInfinity) return a;
  return a + std::log1p(std::exp(b - a));
}

// log(e^a - e^b) for a >= b; -inf when a == b.
inline double logSubExp(double a, double b) {
  if (b == kNegativeInfinity) return a;
  if (b >= a) return b == a ? kNegativeInfinity : std::numeric_limits<double>::quiet_NaN();
  const double t = b - a;  // < 0
  // log(1 - e^t): log(-expm1(t)) is exact near 0, log1p(-exp(t)) far from it.
  return a + (t > -kLn2 ? std::log(-std::expm1(t)) : std::log1p(-std::exp(t)));
}

// log(e^x - 1) for x >= 0, accurate for tiny x (~log x) and huge x (~x).
inline double logExpm1(double x) {
  if (x > 40.0) return x + std::log1p(-std::exp(-x));
  return std::log(std::expm1(x));
}

// exp(x), or +inf/0 where a double cannot hold it (no floating-point exception flags matter here).
inline double expOrInfinity(double logValue) {
  return std::exp(logValue);
}

}  // namespace rfscope
