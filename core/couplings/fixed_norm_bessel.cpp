#include "core/couplings/fixed_norm_bessel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <boost/math/special_functions/bessel.hpp>

#include "core/math/log_math.h"

namespace rfscope {
namespace {

// ₀F₁(; b; -x) by its series, in double: Σ (-x)^k / (k! (b)_k).
double alternatingSeries(double b, double x) {
  double term = 1, sum = 1;
  for (int k = 1; k < 100000; ++k) {
    term *= -x / (k * (b + k - 1));
    sum += term;
    if (std::abs(term) <= 1e-17 * std::abs(sum) && k > x / b) break;
  }
  return sum;
}

// c_k = 1/(k! (b)_k), k = 0..count-1: Ω_d(t a) = Σ c_k (-t² a²/4)^k.
std::vector<double> seriesCoefficients(double b, int count) {
  std::vector<double> c(static_cast<std::size_t>(count));
  c[0] = 1;
  for (int k = 1; k < count; ++k)
    c[static_cast<std::size_t>(k)] = c[static_cast<std::size_t>(k) - 1] / (k * (b + k - 1));
  return c;
}

// M² Var = M V + P C as a series in x = a²/4 (a = √d|z| < 4): the coefficients of (-x)^n are
// M v_n + P w_n with v_n = ½ 4ⁿ c_n - Σ_k c_k c_{n-k}, w_n = 2ⁿ c_n - Σ_k c_k c_{n-k}. n = 0, 1
// vanish; n = 2, 3 are (d-1)M - P times 1/(b²(b+1)) and 2/(b²(b+1)(b+2)) (b = d/2), with the
// integer (d-1)M - P = r(d - r) exact (0 for full blocks, whose leading terms cancel).
double smallArgumentBlockVariance(int d, std::int64_t m, std::int64_t p, double x) {
  const double b = 0.5 * d;
  const auto excess = static_cast<double>(static_cast<std::int64_t>(d - 1) * m - p);
  double sum = excess * x * x / (b * b * (b + 1)) * (1 - 2 * x / (b + 2));
  constexpr int kTerms = 60;  // (16 x)^n / (n! (b)_n)² < 1e-30 by n = 60 for x < 4
  const std::vector<double> c = seriesCoefficients(b, kTerms);
  double power = x * x * x;  // x^n, n = 3 so far
  for (int n = 4; n < kTerms; ++n) {
    power *= x;
    double convolution = 0;
    for (int k = 0; k <= n; ++k)
      convolution += c[static_cast<std::size_t>(k)] * c[static_cast<std::size_t>(n - k)];
    const double cn = c[static_cast<std::size_t>(n)];
    const double v = 0.5 * std::ldexp(cn, 2 * n) - convolution;
    const double w = std::ldexp(cn, n) - convolution;
    const double term = (static_cast<double>(m) * v + static_cast<double>(p) * w) * power;
    sum += n % 2 ? -term : term;
    if (std::abs(term) <= 1e-18 * std::abs(sum)) break;
  }
  return sum;
}

// Ω_d(√d|z|) - e^{-|z|²/2} for |z|² < 2, without subtracting the two: the series of both in
// t = -|z|²/2 differ by tᵏ/k! (bᵏ/(b)_k - 1), zero for k = 0, 1 (b = d/2), so the bias keeps
// its relative accuracy as z → 0 (it is -|z|⁴/(4(d + 2)) + O(|z|⁶)).
double smallArgumentBias(int d, double diffNormSquared) {
  const double b = 0.5 * d, t = -0.5 * diffNormSquared;
  double power = t, logRatio = 0, sum = 0;  // power = tᵏ/k!, logRatio = log(bᵏ/(b)_k)
  for (int k = 2; k < 200; ++k) {
    power *= t / k;
    logRatio -= std::log1p((k - 1) / b);
    const double term = power * std::expm1(logRatio);
    sum += term;
    if (std::abs(term) <= 1e-18 * std::abs(sum)) break;
  }
  return sum;
}

// P = Σ_b m_b(m_b - 1) over ⌈M/d⌉ blocks.
std::int64_t blockPairs(int d, std::int64_t m) {
  const std::int64_t full = m / d, rest = m % d;
  return full * d * (d - 1) + rest * (rest - 1);
}

}  // namespace

SignedLog logNormalisedBessel(int dimension, double r) {
  if (dimension == 1) return SignedLog::fromValue(std::cos(r));
  if (r == 0) return SignedLog{0.0, 1};
  const double b = 0.5 * dimension, x = 0.25 * r * r;
  if (x <= b) return SignedLog::fromValue(alternatingSeries(b, x));
  const double nu = b - 1;
  const double j = boost::math::cyl_bessel_j(nu, r);
  if (std::abs(j) < 1e-280)
    return SignedLog::fromValue(alternatingSeries(b, x));  // J underflows: r ≪ ν
  return {std::lgamma(b) + nu * std::log(2 / r) + std::log(std::abs(j)), (j > 0) - (j < 0)};
}

double normalisedBessel(int dimension, double r) {
  return logNormalisedBessel(dimension, r).value();
}

double logNormalisedBesselI(int dimension, double x) {
  if (x == 0) return 0;
  const double b = 0.5 * dimension, logX = std::log(x);
  std::vector<double> logs{0.0};
  double logTerm = 0, peak = 0;
  for (int k = 1;; ++k) {
    logTerm += logX - std::log(static_cast<double>(k)) - std::log(b + k - 1);
    logs.push_back(logTerm);
    peak = std::max(peak, logTerm);
    if (logTerm < peak - 45 && x < k * (b + k - 1)) break;  // past the peak, below e^-45 of it
  }
  double sum = 0;
  for (double l : logs)
    sum += std::exp(l - peak);
  return peak + std::log(sum);
}

FixedNormTrigMoments fixedNormTrigMoments(int dimension, std::int64_t features,
                                          double diffNormSquared) {
  const int d = dimension;
  const double a = std::sqrt(d * diffNormSquared), x = 0.25 * a * a;
  FixedNormTrigMoments out;
  const SignedLog mean = logNormalisedBessel(d, a);
  out.mean = mean.value();
  if (diffNormSquared < 2) {
    out.bias = smallArgumentBias(d, diffNormSquared);
    out.logAbsBias = std::log(std::abs(out.bias));
    out.biasSign = (out.bias > 0) - (out.bias < 0);
  } else {  // Ω - K in logs: both can lie far below the smallest double
    const double logKernel = -0.5 * diffNormSquared;
    if (mean.sign <= 0) {
      out.biasSign = -1;
      out.logAbsBias = logAddExp(mean.logAbs, logKernel);
    } else {
      out.biasSign = (mean.logAbs > logKernel) - (mean.logAbs < logKernel);
      out.logAbsBias = out.biasSign > 0   ? logSubExp(mean.logAbs, logKernel)
                       : out.biasSign < 0 ? logSubExp(logKernel, mean.logAbs)
                                          : kNegativeInfinity;
    }
    out.bias = out.biasSign * std::exp(out.logAbsBias);
  }
  if (d == 1 || diffNormSquared == 0) return out;  // d = 1: ω = ±1, cos(ωz) is fixed
  const std::int64_t p = blockPairs(d, features);
  const auto m = static_cast<double>(features);
  double scaled = 0;  // M² Var
  if (x < 4) {
    scaled = smallArgumentBlockVariance(d, features, p, x);
  } else {
    const double square = out.mean * out.mean;
    const double v = 0.5 * (1 + normalisedBessel(d, 2 * a)) - square;
    const double c = normalisedBessel(d, std::numbers::sqrt2 * a) - square;
    scaled = m * v + static_cast<double>(p) * c;
  }
  out.variance = std::max(0.0, scaled) / (m * m);
  return out;
}

FixedNormPositiveMoments fixedNormPositiveMoments(int dimension, std::int64_t features,
                                                  double normSquaredSum, double sumNormSquared,
                                                  double diffNormSquared) {
  const int d = dimension;
  const double quarter = 0.25 * d * sumNormSquared;  // ₀F₁'s argument at t = 1
  const double c = normSquaredSum;
  const double f1 = logNormalisedBesselI(d, quarter);
  const double f2 = logNormalisedBesselI(d, 2 * quarter);
  const double f4 = logNormalisedBesselI(d, 4 * quarter);
  FixedNormPositiveMoments out;
  out.logMean = f1 - c;
  const double logKernel = -0.5 * diffNormSquared;
  out.biasSign = (out.logMean > logKernel) - (out.logMean < logKernel);
  out.logAbsBias = out.biasSign == 0 ? kNegativeInfinity
                                     : logSubExp(std::max(out.logMean, logKernel),
                                                 std::min(out.logMean, logKernel));
  // M² e^{2c} Var = M F(4) + P F(2) - (M + P) F(1)², each term positive; F(4) F(1)^-2 >= 1.
  const auto m = static_cast<double>(features);
  const auto p = static_cast<double>(blockPairs(d, features));
  const double positive = logAddExp(std::log(m) + f4, p > 0 ? std::log(p) + f2 : kNegativeInfinity);
  const double negative = std::log(m + p) + 2 * f1;
  out.logVariance = positive > negative ? logSubExp(positive, negative) - 2 * c - 2 * std::log(m)
                                        : kNegativeInfinity;
  return out;
}

}  // namespace rfscope
