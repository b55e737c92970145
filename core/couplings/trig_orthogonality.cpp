#include "core/couplings/trig_orthogonality.h"

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/hypergeometric_1F1.hpp>

#include "core/couplings/positive_conformity.h"
#include "core/math/chebyshev_interpolant.h"
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

// F(c) = ₁F₁(d; d/2; -c z²/2); 0 where even d makes it smaller than any double (see
// trigOrthogonalCovariance).
double kummer(int dimension, double c, double diffNormSquared) {
  const double d = dimension;
  if (dimension % 2 == 0 && c * diffNormSquared > 2e6) return 0.0;
  return boost::math::hypergeometric_1F1(d, 0.5 * d, -0.5 * c * diffNormSquared);
}

// log of the density of ψ ∝ sin^{d-1} ψ on [0, π] at ψ (its normaliser Γ((d+1)/2)/(√π Γ(d/2))).
double logAngleDensity(double d, double psi) {
  return (d - 1) * std::log(std::sin(psi)) + std::lgamma(0.5 * (d + 1)) - std::lgamma(0.5 * d) -
         0.5 * std::log(std::numbers::pi);
}

// The simplex covariance for small z as the series Σ_{k>=2} (-z²/2)^k 2^k/k! (ρ_k m_k - 1), with
// ρ_k = Π_{j<k} (d + j)/(d + 2j) (as for ORF) and m_k = ½ E[(1 + s)^k + (1 - s)^k]
// = Σ_{j even} C(k, j) E s^j, s = sin ψ/(d - 1), E sin^j ψ = Γ((d+j)/2) Γ((d+1)/2) /
// (Γ((d+j+1)/2) Γ(d/2)): no subtraction of e^{-z²}.
double smallDistanceSimplexCovariance(double d, double zSquared) {
  constexpr int kTerms = 200;
  std::vector<double> moments(kTerms + 1, 0.0);  // E s^j for even j
  for (int j = 2; j <= kTerms; j += 2)
    moments[j] =
        std::exp(std::lgamma(0.5 * (d + j)) + std::lgamma(0.5 * (d + 1)) -
                 std::lgamma(0.5 * (d + j + 1)) - std::lgamma(0.5 * d) - j * std::log(d - 1));
  const double x = 0.5 * zSquared;
  double logRatio = 0, power = 1, sum = 0;
  for (int k = 0; k < kTerms; ++k) {
    if (k >= 2) {
      double excess = 0;  // m_k - 1
      double binomial = 1;
      for (int j = 1; j <= k; ++j) {
        binomial *= static_cast<double>(k - j + 1) / j;
        if (j % 2 == 0) excess += binomial * moments[j];
      }
      const double term = power * std::expm1(logRatio + std::log1p(excess));
      sum += term;
      if (std::abs(term) <= 1e-17 * std::abs(sum)) break;
    }
    logRatio += std::log1p(-k / (d + 2.0 * k));
    power *= -2 * x / (k + 1);
  }
  return sum;
}

// F(c) on c ∈ [1 - δ, 1 + δ], δ = 1/(d - 1) (all that the simplex integrand asks for) as a
// Chebyshev interpolant: the adaptive quadrature needs F at about 1,200 points, and each ₁F₁ with
// a = d costs ~0.1 ms at d = 1024 (0.2 s per covariance directly, 33–65 values here). For even d
// the interpolant is of G(c) = F(c) e^{(c-1)x}, x = z²/2, a polynomial in c of degree d/2 with no
// exponential trend (Kummer's transformation), for odd d of F, which then falls algebraically.
// Direct evaluation where 256 nodes do not resolve it to 1e-15 of its largest value, or to the
// ₁F₁ values' own rounding below 1e-12 of it.
class SimplexKummer {
 public:
  SimplexKummer(int dimension, double diffNormSquared)
      : dimension_(dimension),
        diffNormSquared_(diffNormSquared),
        trend_(dimension % 2 == 0 ? 0.5 * diffNormSquared : 0.0) {
    const double delta = 1.0 / (dimension - 1);
    interpolant_ = ChebyshevInterpolant::fit(
        [&](double c) { return scaled(kummer(dimension_, c, diffNormSquared_), c); }, 1 - delta,
        1 + delta, 1e-15, 1e-12, 256);
  }

  double operator()(double c) const {
    if (!interpolant_) return kummer(dimension_, c, diffNormSquared_);
    return rescaled((*interpolant_)(c), -(c - 1) * trend_);
  }

 private:
  // F(c) e^{(c-1) trend}: a plain product where the factor is a double (through logarithms the
  // product would lose |log F| ulps, 1e-13 at F = e^{-580}), in logarithms where it overflows.
  double scaled(double f, double c) const { return rescaled(f, (c - 1) * trend_); }
  static double rescaled(double f, double exponent) {
    if (f == 0) return 0.0;
    if (std::abs(exponent) < 700) return f * std::exp(exponent);
    return std::copysign(std::exp(std::log(std::abs(f)) + exponent), f);
  }

  int dimension_;
  double diffNormSquared_, trend_;
  std::optional<ChebyshevInterpolant> interpolant_;
};

}  // namespace

double trigSimplexCovariance(int dimension, double diffNormSquared) {
  const double d = dimension;
  if (diffNormSquared <= kSeriesLimit) return smallDistanceSimplexCovariance(d, diffNormSquared);
  const SimplexKummer f(dimension, diffNormSquared);
  // ½ E_ψ[F(1 + s) + F(1 - s)], the integrand symmetric about π/2: 2 ∫₀^{π/2}.
  const auto integrand = [&](double psi) {
    if (!(psi > 0)) return 0.0;
    const double s = std::sin(psi) / (d - 1);
    return 0.5 * (f(1 + s) + f(1 - s)) * std::exp(logAngleDensity(d, psi));
  };
  const double mean = 2 * boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
                              integrand, 0.0, std::numbers::pi / 2, 15, 1e-13);
  return mean - std::exp(-diffNormSquared);
}

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

double coupledTrigLogVariance(double logOneFeatureVariance, int dimension, std::int64_t features,
                              double covariance) {
  const double m = static_cast<double>(features);
  const double pairs = coupledPairCount(features, dimension);
  double bracket = std::log(m) + logOneFeatureVariance;  // M Var₁ + P C
  if (pairs > 0 && covariance < 0)
    bracket = logSubExp(bracket, std::log(pairs) + std::log(-covariance));
  if (pairs > 0 && covariance > 0)
    bracket = logAddExp(bracket, std::log(pairs) + std::log(covariance));
  return bracket - 2 * std::log(m);
}

}  // namespace rfscope
