#include "core/mechanisms/gerf.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include "core/mechanisms/exponential_features.h"
#include "core/mechanisms/gerf_optimizer.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {
namespace {

using Wide = boost::multiprecision::cpp_bin_float_50;

// Up to this exponent e^x is evaluated directly in Wide (whose range ends near e^{7e8}).
constexpr double kWideDirectLimit = 1e6;

// The three pieces of E = ½(e^{x₁}cos y₁ + e^{l₃}) - 1 (see the header), in any real type.
template <class Real>
struct ExcessParts {
  Real x1, y1, l3;
};

template <class Real>
ExcessParts<Real> excessParts(int dimension, Real a, Real b, int s, Real w) {
  using std::atan2;
  using std::sqrt;
  const Real d = dimension;
  // q = 16A²/(1-8A); α₁ = (1+q)^{d/2} with the principal branch, log1p(q) written out in real
  // arithmetic so that it stays exact for tiny A.
  const Real p8r = 1 - 8 * a, p8i = -8 * b;  // 1 - 8A
  const Real m8 = p8r * p8r + p8i * p8i;     // |1 - 8A|²
  const Real a2r = a * a - b * b, a2i = 2 * a * b;
  const Real qr = 16 * (a2r * p8r + a2i * p8i) / m8;  // 16A² · conj(1-8A) / |1-8A|²
  const Real qi = 16 * (a2i * p8r - a2r * p8i) / m8;
  const Real logModulus = boost::math::log1p(2 * qr + qr * qr + qi * qi) / 2;
  const Real argument = atan2(qi, 1 + qr);
  ExcessParts<Real> parts;
  parts.x1 = d / 2 * logModulus + s * w * p8r / m8;  // Re(log α₁ + s w/(1-8A))
  parts.y1 = d / 2 * argument - s * w * p8i / m8;    // Im(...)
  const Real modulus4 = sqrt((1 - 4 * a) * (1 - 4 * a) + 16 * b * b);
  parts.l3 =
      d / 2 * boost::math::log1p(16 * (a * a + b * b) / p8r) + (modulus4 + 4 * s * a) * w / p8r;
  return parts;
}

// log E in 50-digit arithmetic: used only where the double evaluation cancels.
double wideLogExcess(int dimension, double a, double b, int s, double w) {
  using boost::multiprecision::cos;
  using boost::multiprecision::sin;
  const auto p = excessParts<Wide>(dimension, Wide(a), Wide(b), s, Wide(w));
  const Wide big = p.x1 > p.l3 ? p.x1 : p.l3;
  if (big > kWideDirectLimit) {
    // e^{x₁}, e^{l₃} would overflow even 50-digit floats (e.g. w ~ 1e16): the larger one factored
    // out, E = ½ e^{big} (e^{x₁-big} cos y₁ + e^{l₃-big}) - 1.
    using boost::multiprecision::exp;
    const Wide inner = exp(p.x1 - big) * cos(p.y1) + exp(p.l3 - big);
    if (inner <= 0) return kNegativeInfinity;
    const Wide logHalfP = big + log(inner) - log(Wide(2));
    if (logHalfP <= 0) return kNegativeInfinity;
    return static_cast<double>(logHalfP + boost::math::log1p(-exp(-logHalfP)));
  }
  const Wide half = sin(p.y1 / 2);
  const Wide e =
      (boost::math::expm1(p.x1) * cos(p.y1) - 2 * half * half + boost::math::expm1(p.l3)) / 2;
  if (e <= 0) return kNegativeInfinity;  // exact zero (e.g. x = y for TrigRF)
  return static_cast<double>(log(e));
}

}  // namespace

double gerfLogExcess(int dimension, double diffNormSquared, double sumNormSquared,
                     std::complex<double> a, int s) {
  const double ar = a.real(), ai = a.imag();
  if (!(ar < kGerfMaxRealA)) return std::numeric_limits<double>::infinity();
  const double w = s > 0 ? sumNormSquared : diffNormSquared;
  if (ai == 0 && s > 0) {
    // Real A, s = +1 (OPRF's family): both terms of E are e^{x₁}, so E = expm1(x₁) with
    // x₁ = (d/2) log(1 + 16A²/(1 - 8A)) + w/(1 - 8A) >= 0, free of cancellation.
    const double r = 1 - 8 * ar;
    const double x1 = 0.5 * dimension * std::log1p(16 * ar * ar / r) + w / r;
    return x1 > 0 ? logExpm1(x1) : kNegativeInfinity;
  }
  const auto p = excessParts<double>(dimension, ar, ai, s, w);
  // Cancellation guard: when E is much smaller than its terms, redo it with 50 digits.
  constexpr double kCancellation = 1e-4;
  if (std::max(p.x1, p.l3) <= 700) {
    const double c = std::cos(p.y1), h = std::sin(p.y1 / 2);
    const double t1 = std::expm1(p.x1) * c, t2 = 2 * h * h, t3 = std::expm1(p.l3);
    const double e = (t1 - t2 + t3) / 2;
    if (e > kCancellation * (std::abs(t1) + t2 + std::abs(t3)) / 2) return std::log(e);
    return wideLogExcess(dimension, ar, ai, s, w);
  }
  // Log domain: P = e^{x₁}cos y₁ + e^{l₃} (|first| <= second), E = P/2 - 1.
  const double c = std::cos(p.y1);
  double logP;
  if (c >= 0) {
    logP = logAddExp(p.x1 + std::log(c), p.l3);
  } else {
    const double t = p.x1 + std::log(-c);
    if (t > p.l3 + std::log1p(-kCancellation)) return wideLogExcess(dimension, ar, ai, s, w);
    logP = logSubExp(p.l3, t);
  }
  if (logP - kLn2 < kCancellation) return wideLogExcess(dimension, ar, ai, s, w);
  return logSubExp(logP - kLn2, 0.0);
}

double gerfLogVariance(const PairGeometry& pair, std::complex<double> a, int s) {
  return -pair.diffNormSquared +
         gerfLogExcess(pair.dimension, pair.diffNormSquared, pair.sumNormSquared, a, s);
}

const MechanismInfo& Gerf::info() const {
  static const MechanismInfo info{
      "gerf",
      "GERF",
      "Generalised exponential RFs D·exp(A|ω|² + Bωᵀx + C|x|²), complex A, s = ±1",
      "Likhosherstov et al. 2022 (CRT), Thm 3.1/3.2",
      false,
      false,
      Rgb{204, 121, 167}};
  return info;
}

std::vector<ParameterSpec> Gerf::parameters() const {
  auto a = realParameter(
      "A", "Re A", 0.0, -100.0, kGerfMaxRealA,
      "real part of A; the variance is finite only for Re A < 1/8 (at 1/8: not available)");
  a.optional = true;
  a.autoLabel = "numerical optimum";
  auto b = realParameter("A_imag", "Im A", 0.0, -100.0, 100.0, "imaginary part of A");
  b.optional = true;
  b.autoLabel = "numerical optimum";
  auto s = choiceParameter("s", "s", {{"+1", "+1"}, {"-1", "-1"}}, "+1",
                           "sign linking the two feature maps (+1: positive-type, -1: trig-type)");
  s.optional = true;
  s.autoLabel = "numerical optimum";
  for (auto* spec : {&a, &b, &s})
    spec->group = "Estimator";
  return {a, b, s};
}

VarianceResult Gerf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const auto& g = pair.geometry;
  const std::optional<double> fixedReal = optionalReal(params, "A");
  const std::optional<double> fixedImag = optionalReal(params, "A_imag");
  std::optional<int> fixedS;
  if (params.contains("s")) fixedS = params.choice("s") == "-1" ? -1 : 1;

  std::complex<double> a;
  int s = 1;
  if (fixedReal && fixedImag && fixedS) {
    a = {*fixedReal, *fixedImag};
    s = *fixedS;
  } else {
    const GerfOptimum optimum = optimizeGerf(g.dimension, g.diffNormSquared, g.sumNormSquared,
                                             {fixedReal, fixedImag, fixedS});
    a = optimum.a;
    s = optimum.s;
  }
  result.parametersUsed.set("A", a.real());
  result.parametersUsed.set("A_imag", a.imag());
  result.parametersUsed.set("s", std::string(s > 0 ? "+1" : "-1"));
  if (!(a.real() < kGerfMaxRealA)) {
    result.logVariance =
        Outcome<double>::unavailable("GERF with Re A >= 1/8 has an infinite variance");
    return result;
  }
  result.logVariance = gerfLogVariance(g, a, s);
  return result;
}

Outcome<TrialModel> gerfTrialModel(std::complex<double> a, int sign, const Eigen::VectorXd& x,
                                   const Eigen::VectorXd& y) {
  const double s = sign < 0 ? -1.0 : 1.0;
  const double normsSquared = x.squaredNorm() + y.squaredNorm();
  const std::complex<double> oneMinus4A = 1.0 - 4.0 * a;
  if (!(oneMinus4A.real() > 0))
    return Outcome<TrialModel>::unavailable("GERF needs Re(1 - 4A) > 0 (CRT Thm 3.1)");
  // B = √(s(1-4A)), C = -(s+1)/2, D² = (1-4A)^{d/2} (principal roots).
  const std::complex<double> b = std::sqrt(s * oneMinus4A);
  const std::complex<double> constant =
      -(s + 1) / 2 * normsSquared + 0.5 * static_cast<double>(x.size()) * std::log(oneMinus4A);
  TrialModel model;
  ExponentialFeatureModel& exponential = model.exponential;
  exponential.alphaRe = 2 * a.real();
  exponential.alphaIm = 2 * a.imag();
  if (s > 0) {
    exponential.sumRe = b.real(), exponential.sumIm = b.imag();
  } else {
    exponential.diffRe = b.real(), exponential.diffIm = b.imag();
  }
  exponential.gammaIm = constant.imag();
  model.logConstant = constant.real();
  // The variance needs E e^{4 Re A |ω|²} < ∞, the fourth moment E e^{8 Re A |ω|²} < ∞.
  model.fourthMomentInfinite = a.real() >= 1.0 / 16;
  return model;
}

GerfOptimum dataDrivenGerf(const SetStatistics& stats) {
  return optimizeGerf(stats.dimension, stats.meanDiffNormSquared, stats.meanSumNormSquared, {});
}

namespace {

// A and s of resolved GERF parameters.
std::complex<double> gerfA(const ParameterSet& params) {
  return {realOr(params, "A", 0.0), realOr(params, "A_imag", 0.0)};
}

int gerfSign(const ParameterSet& params) {
  return choiceOr(params, "s", "+1") == "-1" ? -1 : 1;
}

}  // namespace

ParameterSet Gerf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  const GerfOptimum optimum = dataDrivenGerf(statistics.plain());
  ParameterSet parameters;
  parameters.set("A", optimum.a.real());
  parameters.set("A_imag", optimum.a.imag());
  parameters.set("s", std::string(optimum.s > 0 ? "+1" : "-1"));
  return parameters;
}

Outcome<TrialModel> Gerf::trialModel(Coupling, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                     const ParameterSet& resolved) const {
  return gerfTrialModel(gerfA(resolved), gerfSign(resolved), x, y);
}

Outcome<std::unique_ptr<FeatureMap>> Gerf::drawFeatureMap(const FeatureMapSpec& spec,
                                                          TrialStream& stream) const {
  return drawExponentialFeatureMap({gerfA(spec.parameters), gerfSign(spec.parameters), false}, spec,
                                   stream);
}

Outcome<SameQueryCovariance> Gerf::sameQueryCovariance(const ParameterSet& resolved) const {
  if ((resolved.contains("A_imag") && resolved.real("A_imag") != 0) ||
      (resolved.contains("s") && resolved.choice("s") != "+1"))
    return Outcome<SameQueryCovariance>::unavailable(
        "GERF with complex A or s = -1: no same-query covariance implemented (Monte Carlo only)");
  const double r = 1 - 8 * (resolved.contains("A") ? resolved.real("A") : 0.0);
  if (!(r > 0)) return Outcome<SameQueryCovariance>::unavailable("A >= 1/8: infinite variance");
  return SameQueryCovariance{SameQueryCovariance::Form::Optimal, r, nullptr};
}

}  // namespace rfscope
