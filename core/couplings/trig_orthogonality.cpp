#include "core/couplings/trig_orthogonality.h"

#include <cmath>

#include <boost/math/special_functions/hypergeometric_1F1.hpp>

#include "core/couplings/positive_conformity.h"
#include "core/math/log_math.h"

namespace rfscope {
namespace {

// Below this z² the covariance is summed as a series without the subtraction of e^{-z²}.
constexpr double kSeriesLimit = 1.0;

double smallDistanceCovariance(double d, double zSquared) {
  const double x = 0.5 * zSquared;
  double logRatio = 0;  // log r_k
  double power = 1;     // (-x)^k / k!, times 2^k
  double sum = 0;
  for (int k = 0; k < 200; ++k) {
    const double term = power * std::expm1(logRatio);
    if (k >= 2) {
      sum += term;
      if (std::abs(term) <= 1e-17 * std::abs(sum)) break;
    }
    logRatio += std::log1p(-k / (d + 2.0 * k));  // (d + k)/(d + 2k) = 1 - k/(d + 2k)
    power *= -2 * x / (k + 1);
  }
  return sum;
}

}  // namespace

double trigOrthogonalCovariance(int dimension, double diffNormSquared) {
  const double d = dimension;
  if (diffNormSquared <= kSeriesLimit) return smallDistanceCovariance(d, diffNormSquared);
  // Even d: ₁F₁(d; d/2; -x) = e^{-x} ₁F₁(-d/2; d/2; x) is e^{-x} times a polynomial of degree
  // d/2 <= 512, below e^{-990000} once z² = 2x > 2e6, as is e^{-z²}: C rounds to 0 (Boost's ₁F₁
  // throws from x ≈ 2^31 on). Odd d decays like x^{-d} and Boost evaluates it throughout.
  if (dimension % 2 == 0 && diffNormSquared > 2e6) return 0.0;
  const double f = boost::math::hypergeometric_1F1(d, 0.5 * d, -0.5 * diffNormSquared);
  return f - std::exp(-diffNormSquared);
}

double trigOrthogonalityGap(int dimension, std::int64_t features, double diffNormSquared) {
  const double m = static_cast<double>(features);
  const double pairs = coupledPairCount(features, dimension);
  if (!(pairs > 0)) return 0;
  return -pairs / (m * m) * trigOrthogonalCovariance(dimension, diffNormSquared);
}

double orthogonalTrigLogVariance(int dimension, std::int64_t features, double diffNormSquared) {
  const double m = static_cast<double>(features);
  // M Var₁ + P C, with Var₁ = ½ (1 - e^{-z²})² the one-feature variance.
  const double logIid = std::log(m) - kLn2 + 2 * std::log(-std::expm1(-diffNormSquared));
  const double pairs = coupledPairCount(features, dimension);
  double bracket = logIid;
  if (pairs > 0) {
    const double c = trigOrthogonalCovariance(dimension, diffNormSquared);
    if (c < 0) bracket = logSubExp(logIid, std::log(pairs) + std::log(-c));
    if (c > 0) bracket = logAddExp(logIid, std::log(pairs) + std::log(c));
  }
  return bracket - 2 * std::log(m);
}

}  // namespace rfscope
