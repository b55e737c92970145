#include "core/couplings/positive_conformity.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "core/math/log_math.h"

namespace rfscope {
namespace {

constexpr double kMaxCancellation = 9.21;  // log(1e4): the largest tolerated binomial cancellation

// Last k worth summing for Poisson(u) weights: beyond it the tail is < 1e-20 of the total.
int lastTerm(double u) {
  return static_cast<int>(std::ceil(u + 12 * std::sqrt(u) + 40));
}

// h = 1 - ρe^{-u} and g = ρe^{-u}, each a Poisson(u) average of non-negative terms, so that each is
// accurate where it is small (h for tiny v, g where ρ ≪ e^u).
struct DeficitPair {
  double h = 0, g = 0;
};

// ORF: h = Σ_k P(k; u)(1 - r_k), g = Σ_k P(k; u) r_k, r_k = exp(Σ_{j<k} log1p(-j/(d+2j))).
DeficitPair orthogonalDeficit(int d, double u) {
  double p = std::exp(-u), logR = 0;
  DeficitPair out;
  out.g = p * (1 + u);  // k = 0, 1: r = 1
  p *= u;
  const int last = lastTerm(u);
  for (int k = 2; k <= last; ++k) {
    logR += std::log1p(-(k - 1.0) / (d + 2.0 * (k - 1)));
    p *= u / k;
    out.h += p * -std::expm1(logR);
    out.g += p * std::exp(logR);
  }
  return out;
}

// Σ_{k≥0} P(k; u)(1 - c^k r_k) (or Σ P(k; u) c^k r_k) at one angle, c = 1 + t sin φ.
double simplexIntegrand(int d, double u, double t, double sinPhi, bool complement) {
  const double c = 1 + t * sinPhi;
  const double logC = c > 0 ? std::log1p(t * sinPhi) : kNegativeInfinity;
  double p = std::exp(-u), b = 1, logB = 0;
  double sum = complement ? p : 0;
  const int last = lastTerm(u);
  for (int k = 1; k <= last; ++k) {
    const double ratio = (d + k - 1.0) / (d + 2.0 * (k - 1));
    p *= u / k;
    b *= c * ratio;
    logB += logC + std::log(ratio);
    if (complement)
      sum += p * b;
    else
      sum += p * (b > 0.5 ? -std::expm1(logB) : 1 - b);  // 1 - b exactly where b ≈ 1
  }
  return sum;
}

DeficitPair simplexDeficit(int d, double u) {
  const double t = -1.0 / (d - 1);
  const double g = boost::math::tgamma_delta_ratio(0.5 * d, 0.5);  // Γ(d/2)/Γ((d+1)/2)
  const int last = lastTerm(u);
  if (last * std::log((1 + std::abs(t)) / (1 - std::abs(t))) <= kMaxCancellation) {
    // m_k - 1 = Σ_{j≥1} C(k,j) t^j μ_j, μ_j = E[sin^j φ] (μ_{j+2} = μ_j (d+j)/(d+j+1)).
    std::vector<double> mu(last + 1), row(last + 1, 0.0);
    mu[0] = 1;
    mu[1] = 2 / (d * g * g);
    for (int j = 2; j <= last; ++j)
      mu[j] = mu[j - 2] * (d + j - 2.0) / (d + j - 1.0);
    row[0] = 1;
    double p = std::exp(-u), logR = 0;
    DeficitPair out;
    out.g = p;
    for (int k = 1; k <= last; ++k) {
      for (int j = k; j >= 1; --j)
        row[j] += t * row[j - 1];  // row[j] = C(k,j) t^j
      double tail = 0;
      for (int j = 1; j <= k; ++j)
        tail += row[j] * mu[j];
      if (k >= 2) logR += std::log1p(-(k - 1.0) / (d + 2.0 * (k - 1)));
      p *= u / k;
      const double r = std::exp(logR);
      out.h += p * (-std::expm1(logR) - r * tail);  // (1 - r_k) + r_k (1 - m_k), both ≥ 0
      out.g += p * r * (1 + tail);                  // r_k m_k > 0
    }
    return out;
  }
  // Quadrature over φ ∈ [0, π/2] (the integrand is symmetric about π/2) of a positive integrand.
  thread_local boost::math::quadrature::tanh_sinh<double> integrator;
  const double norm = std::sqrt(std::numbers::pi) * g / 2;  // ∫_0^{π/2} sin^{d-1} φ dφ
  auto average = [&](bool complement) {
    return integrator.integrate(
               [&](double phi) {
                 const double s = std::sin(phi);
                 return std::pow(s, d - 1) * simplexIntegrand(d, u, t, s, complement);
               },
               0.0, std::numbers::pi / 2, 1e-15) /
           norm;
  };
  return {average(false), average(true)};
}

}  // namespace

bool hasPositiveClosedForms(Coupling coupling) {
  return coupling == Coupling::Iid || coupling == Coupling::Orthogonal ||
         coupling == Coupling::Simplex;
}

Outcome<Conformity> positiveConformity(Coupling kind, int dimension, double u) {
  using Result = Outcome<Conformity>;
  if (!hasPositiveClosedForms(kind))
    return Result::unavailable("no closed-form RF-conformity for coupling '" + couplingId(kind) +
                               "'");
  if (kind == Coupling::Iid && u >= 0) return Conformity{u, 0.0};  // eq. (19), any u
  if (kind == Coupling::Simplex && dimension < 2)
    return Result::unavailable("simplex coupling needs d >= 2");
  if (!(u >= 0) || u > kMaxConformityU)
    return Result::unavailable("RF-conformity is evaluated for |x + y|² <= 700 only");
  Conformity result;
  if (kind == Coupling::Iid || u == 0) {
    result.logConformity = u;
    return result;
  }
  const DeficitPair pair =
      kind == Coupling::Orthogonal ? orthogonalDeficit(dimension, u) : simplexDeficit(dimension, u);
  result.deficit = pair.h;
  result.logConformity = u + std::log(pair.g);
  return result;
}

double coupledPairCount(std::int64_t features, int dimension) {
  const std::int64_t blocks = features / dimension, rest = features % dimension;
  return static_cast<double>(blocks) * dimension * (dimension - 1.0) +
         static_cast<double>(rest) * (rest - 1.0);
}

double coupledPositiveLogVariance(Coupling kind, int dimension, std::int64_t features,
                                  double diffNormSquared, double u) {
  if (!hasPositiveClosedForms(kind)) return kNaN;
  const double m = static_cast<double>(features);
  if (!(u > 0)) return u == 0 ? kNegativeInfinity : kNaN;
  const double iid = std::log(m) + logExpm1(u);
  const double pairs = coupledPairCount(features, dimension);
  double bracket = iid;
  if (kind != Coupling::Iid && pairs > 0) {
    const Outcome<Conformity> c = positiveConformity(kind, dimension, u);
    if (!c) return kNaN;
    if (c->deficit > 0) bracket = logSubExp(iid, std::log(pairs) + std::log(c->deficit));
  }
  return -diffNormSquared - 2 * std::log(m) + bracket;
}

double simplexSmallVPrefactor(int dimension) {
  const double g = boost::math::tgamma_delta_ratio(0.5 * dimension, 0.5);
  return 1 - 2 / (dimension * g * g);
}

double positiveOrthogonalityLogGap(int dimension, std::int64_t features, double diffNormSquared,
                                   double u) {
  const double pairs = coupledPairCount(features, dimension);
  const Outcome<Conformity> c = positiveConformity(Coupling::Orthogonal, dimension, u);
  if (!c) return kNaN;
  if (!(pairs > 0) || !(c->deficit > 0)) return kNegativeInfinity;
  const double m = static_cast<double>(features);
  return -diffNormSquared - 2 * std::log(m) + std::log(pairs) + std::log(c->deficit);
}

double logPairNormDensity(Coupling kind, int dimension, double w) {
  const double d = dimension;
  if (!(w > 0)) return kNegativeInfinity;
  switch (kind) {
    case Coupling::Iid:  // eq. (18)
      return (d - 1) * std::log(w) - w * w / 4 - (d - 1) * kLn2 - std::lgamma(d / 2);
    case Coupling::Orthogonal:  // χ_{2d}
      return (2 * d - 1) * std::log(w) - w * w / 2 - (d - 1) * kLn2 - std::lgamma(d);
    case Coupling::Simplex: {
      if (dimension < 2) return kNaN;
      // Eq. (20) with (sin φ cos φ)^{d-1} = (q/2)^{d-1}, q = sin 2φ; the integrand is scaled by
      // its value at φ = π/4 (its peak in q) so that nothing underflows for large d.
      const double ct = -1 / (d - 1);
      auto logIntegrand = [&](double q) {
        return (d - 1) * std::log(q) - w * w / (2 * (1 + q * ct)) - d * std::log1p(q * ct);
      };
      const double peak = logIntegrand(1.0);
      const double integral = boost::math::quadrature::gauss_kronrod<double, 31>::integrate(
          [&](double phi) {
            const double q = std::sin(2 * phi);
            return q > 0 ? std::exp(logIntegrand(q) - peak) : 0.0;
          },
          0.0, std::numbers::pi / 2, 15, 1e-14);
      return (2 * d - 1) * std::log(w) - (d - 2) * kLn2 - 2 * std::lgamma(d / 2) - (d - 1) * kLn2 +
             peak + std::log(integral);
    }
    default:  // no closed form
      break;
  }
  return kNaN;
}

}  // namespace rfscope
