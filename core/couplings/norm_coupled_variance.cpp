#include "core/couplings/norm_coupled_variance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/hypergeometric_0F1.hpp>
#include <boost/math/tools/minima.hpp>

#include "core/couplings/positive_conformity.h"
#include "core/couplings/trig_orthogonality.h"
#include "core/math/log_math.h"

namespace rfscope {
namespace {

constexpr double kMaxL = 700;       // t = e^{-L} stays a normal double
constexpr double kNegligible = 60;  // log-integrand this far below its peak is dropped (e^-60)

// W(L) = F⁻¹(t)² + F⁻¹(1 - t)² with t = e^{-L}: r²/2 ~ Gamma(d/2).
double squaredNormSum(int d, double L) {
  const double a = 0.5 * d, t = std::exp(-L);
  return 2 * (boost::math::gamma_p_inv(a, t) + boost::math::gamma_q_inv(a, t));
}

// log Σ_{k≥2} x^k/((b)_k k!) for x > 0, summed outward from its largest term (the term ratio
// x/((b + k)(k + 1)) falls with k), so that nothing overflows and no term cancels.
double logSeriesTail(double b, double x) {
  const double root = 0.5 * (-(b + 1) + std::sqrt((b - 1) * (b - 1) + 4 * x));
  const int peak = std::max(2, static_cast<int>(std::ceil(root)));
  const double logPeak =
      peak * std::log(x) - (std::lgamma(b + peak) - std::lgamma(b)) - std::lgamma(peak + 1.0);
  double sum = 1, r = 1;
  for (int k = peak;; ++k) {
    r *= x / ((b + k) * (k + 1.0));
    sum += r;
    if (r < 1e-18 * sum) break;
  }
  r = 1;
  for (int k = peak; k > 2; --k) {
    r *= (b + k - 1) * k / x;
    sum += r;
    if (r < 1e-18 * sum) break;
  }
  return logPeak + std::log(sum);
}

// ∫_a^b of exp(f) for a log-integrand f peaked inside (or at an end of) [a, ∞): the log of the
// integral, split at the peak and cut where f has fallen kNegligible below it.
template <class LogIntegrand>
double logIntegralFromPeak(LogIntegrand f, double a) {
  const auto [peakL, negPeak] =
      boost::math::tools::brent_find_minima([&](double L) { return -f(L); }, a, kMaxL, 40);
  double peak = -negPeak;
  double start = a, top = peakL;
  if (f(a) >= peak) top = a, peak = f(a);
  double end = top;
  for (double step = 4; end < kMaxL && f(end) > peak - kNegligible; step *= 1.5)
    end = std::min(kMaxL, end + step);
  const auto shifted = [&](double L) { return std::exp(f(L) - peak); };
  // 1e-12: the log-integrand carries rounding of about 1e-13 (lgamma of the series' peak term),
  // below which a tighter tolerance only subdivides to the depth limit (0.7 s at d = 256, u = 400).
  using Gk = boost::math::quadrature::gauss_kronrod<double, 31>;
  double integral = Gk::integrate(shifted, top, end, 15, 1e-12);
  if (top > start) integral += Gk::integrate(shifted, start, top, 15, 1e-12);
  return peak + std::log(integral);
}

// e^{-z²} - 1 + z², without cancellation for small z².
double expTail(double z2) {
  if (z2 > 0.5) return std::expm1(-z2) + z2;
  double term = 1, sum = 0;
  for (int k = 2; k < 40; ++k) {
    term = k == 2 ? z2 * z2 / 2 : -term * z2 / k;
    sum += term;
  }
  return sum;
}

// ₀F₁(; b; -x) - 1 + x/b: by its series where the terms fall at least threefold from k = 2 on
// (an alternating sum that cannot cancel), else from Boost's ₀F₁.
double trigSeriesTail(double b, double x) {
  if (x > b + 2) return boost::math::hypergeometric_0F1(b, -x) - 1 + x / b;
  double term = x * x / (2 * b * (b + 1)), sum = term;
  for (int k = 2; std::abs(term) > 1e-18 * std::abs(sum); ++k) {
    term *= -x / ((b + k) * (k + 1.0));
    sum += term;
  }
  return sum;
}

}  // namespace

double antitheticPairCount(std::int64_t features, int dimension) {
  const std::int64_t blocks = features / dimension, rest = features % dimension;
  return 2.0 * (static_cast<double>(blocks) * (dimension / 2) + static_cast<double>(rest / 2));
}

PairDeficit normCoupledPositivePair(int dimension, double u) {
  if (!(u >= 0) || u > kMaxConformityU) return {kNaN, kNaN};
  if (u == 0) return {0, 0};
  const double b = 0.5 * dimension;
  // e^{-u} E_t T(W u/4) = 2 ∫ e^{-L - u} T(W(L) u/4) dL, in the log domain.
  const double logTail = logIntegralFromPeak(
      [&](double L) {
        return kLn2 - L - u + logSeriesTail(b, 0.25 * u * squaredNormSum(dimension, L));
      },
      kLn2);
  // g = e^{-u}(1 + u) + e^{-u} E_t T, h = P(2, u) - e^{-u} E_t T.
  return {boost::math::gamma_p(2.0, u) - std::exp(logTail), logAddExp(-u + std::log1p(u), logTail)};
}

double normCoupledPositiveLogVariance(int dimension, std::int64_t features, double diffNormSquared,
                                      double u) {
  if (!(u > 0)) return u == 0 ? kNegativeInfinity : kNaN;
  if (u > kMaxConformityU) return kNaN;
  const double m = static_cast<double>(features);
  const double all = coupledPairCount(features, dimension);
  const double coupled = antitheticPairCount(features, dimension);
  // M expm1(u) - (P - Q) h_ORF - Q h_pair: every deficit is a non-negative reduction.
  double reduction = 0;
  if (all > coupled) {
    const Outcome<Conformity> orf = positiveConformity(Coupling::Orthogonal, dimension, u);
    if (!orf) return kNaN;
    reduction += (all - coupled) * orf->deficit;
  }
  if (coupled > 0) reduction += coupled * normCoupledPositivePair(dimension, u).deficit;
  const double iid = std::log(m) + logExpm1(u);
  const double bracket = reduction > 0 ? logSubExp(iid, std::log(reduction)) : iid;
  return -diffNormSquared - 2 * std::log(m) + bracket;
}

double normCoupledTrigCovariance(int dimension, double diffNormSquared) {
  const double z2 = diffNormSquared, b = 0.5 * dimension;
  if (!(z2 >= 0)) return kNaN;
  if (z2 == 0) return 0;
  using Gk = boost::math::quadrature::gauss_kronrod<double, 31>;
  // The weight e^{-L} times a term at most 1 + W z²/(4b) ≈ 1 + L z²/b: cut at e^{-60}.
  const double end = kLn2 + kNegligible + std::log1p(z2);
  if (z2 < 1) {  // C = E_t T⁻(W z²/4) - (e^{-z²} - 1 + z²), both O(z⁴)
    const double tail = Gk::integrate(
        [&](double L) {
          return 2 * std::exp(-L) * trigSeriesTail(b, 0.25 * z2 * squaredNormSum(dimension, L));
        },
        kLn2, end, 15, 1e-14);
    return tail - expTail(z2);
  }
  const double mean = Gk::integrate(
      [&](double L) {
        return 2 * std::exp(-L) *
               boost::math::hypergeometric_0F1(b, -0.25 * z2 * squaredNormSum(dimension, L));
      },
      kLn2, end, 15, 1e-13);
  return mean - std::exp(-z2);
}

double normCoupledTrigLogVariance(double logOneFeatureVariance, int dimension,
                                  std::int64_t features, double diffNormSquared) {
  const double m = static_cast<double>(features);
  const double all = coupledPairCount(features, dimension);
  const double coupled = antitheticPairCount(features, dimension);
  double cross = 0;
  if (all > coupled)
    cross += (all - coupled) * trigOrthogonalCovariance(dimension, diffNormSquared);
  if (coupled > 0) cross += coupled * normCoupledTrigCovariance(dimension, diffNormSquared);
  double bracket = std::log(m) + logOneFeatureVariance;  // M Var₁ + cross terms
  if (cross < 0) bracket = logSubExp(bracket, std::log(-cross));
  if (cross > 0) bracket = logAddExp(bracket, std::log(cross));
  return bracket - 2 * std::log(m);
}

}  // namespace rfscope
