#include "core/mechanisms/oprf.h"

#include <cmath>

#include "core/math/log_math.h"
#include "core/mechanisms/exponential_features.h"
#include "core/mechanisms/gerf.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {

namespace {

// From this u on, (2u + d)² and u² would overflow: r - 1 = q u/d is then evaluated with u factored
// out of the root (q = 1 + 2(u + 3d)/(root + d) → 2 as u → ∞), and the variance from log(r - 1).
constexpr double kLargeU = 1e150;

double largeUFactor(double d, double u) {
  const double t = d / u;
  const double scaledRoot = std::sqrt((2 + t) * (2 + t) + 8 * t);  // root / u
  return 1 + 2 * (1 + 3 * t) / (scaledRoot + t);
}

}  // namespace

double oprfRMinusOne(int dimension, double u) {
  const double d = dimension;
  if (u >= kLargeU) return u / d * largeUFactor(d, u);  // inf only for u near the largest double
  const double root = std::sqrt((2 * u + d) * (2 * u + d) + 8 * d * u);
  return (2 * u + 4 * u * (u + 3 * d) / (root + d)) / (2 * d);
}

double oprfLogVariance(int dimension, double diffNormSquared, double sumNormSquared) {
  const double d = dimension;
  const double u = sumNormSquared;
  if (!(u > 0)) return kNegativeInfinity;  // x = -y: the estimator is exact
  if (u >= kLargeU) {
    // g with log(r - 1) = log u + log(q/d), 1/(r - 1) = d/(q u) and u/r = d/(d/u + q): finite for
    // every finite u (g ≈ (d/2) log(2u/d) - d log 2 + d/2), where δ itself may overflow.
    const double q = largeUFactor(d, u);
    const double inverseDelta = d / u / q;
    const double g = 0.5 * d * (std::log(u) + std::log(q / d)) - d * kLn2 +
                     d * std::log1p(2 * inverseDelta) - 0.5 * d * std::log1p(inverseDelta) +
                     d / (d / u + q);
    return -diffNormSquared + logExpm1(g);
  }
  const double delta = oprfRMinusOne(dimension, u);
  const double r = 1 + delta;
  const double g = d * std::log1p(0.5 * delta) - 0.5 * d * std::log1p(delta) + u / r;
  return -diffNormSquared + logExpm1(g);
}

const MechanismInfo& Oprf::info() const {
  static const MechanismInfo info{
      "oprf",
      "OPRF",
      "Optimal positive random features (FAVOR++): GERF with s=+1, optimal real A",
      "Likhosherstov et al. 2022 (CRT), Thm 3.3",
      true,
      true,
      Rgb{0, 158, 115}};
  return info;
}

std::vector<ParameterSpec> Oprf::parameters() const {
  auto a = realParameter("A", "A", -0.1, -100.0, 0.0,
                         "real A <= 0 of the GERF with s = +1 (FAVOR++ features stay bounded)");
  a.optional = true;
  a.autoLabel = "A* of the pair (Thm 3.3)";
  a.group = "Estimator";
  return {a};
}

VarianceResult Oprf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const auto& g = pair.geometry;
  if (const auto given = optionalReal(params, "A")) {
    result.logVariance = gerfLogVariance(g, {*given, 0.0}, 1);  // real A, s = +1
    result.parametersUsed.set("A", *given);
    result.parametersUsed.set("rho", 1 / (1 - 8 * *given));
    return result;
  }
  const double delta = oprfRMinusOne(g.dimension, g.sumNormSquared);
  result.logVariance = oprfLogVariance(g.dimension, g.diffNormSquared, g.sumNormSquared);
  result.parametersUsed.set("A", -delta / 8);
  result.parametersUsed.set("rho", 1 / (1 + delta));
  return result;
}

double dataDrivenOprfA(const SetStatistics& stats) {
  return -oprfRMinusOne(stats.dimension, stats.meanSumNormSquared) / 8;
}

ParameterSet Oprf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  ParameterSet parameters;
  parameters.set("A", dataDrivenOprfA(statistics.plain()));
  return parameters;
}

Outcome<TrialModel> Oprf::trialModel(Coupling, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                     const ParameterSet& resolved) const {
  const auto given = optionalReal(resolved, "A");
  const double a =
      given ? *given : -oprfRMinusOne(static_cast<int>(x.size()), (x + y).squaredNorm()) / 8;  // A*
  return gerfTrialModel({a, 0.0}, 1, x, y);
}

Outcome<std::unique_ptr<FeatureMap>> Oprf::drawFeatureMap(const FeatureMapSpec& spec,
                                                          TrialStream& stream) const {
  const double a = requiredReal(spec.parameters, "A", "OPRF");
  return drawExponentialFeatureMap({{a, 0.0}, 1, false}, spec, stream);
}

Outcome<SameQueryCovariance> Oprf::sameQueryCovariance(const ParameterSet& resolved) const {
  const double r = 1 - 8 * (resolved.contains("A") ? resolved.real("A") : 0.0);
  if (!(r > 0)) return Outcome<SameQueryCovariance>::unavailable("A >= 1/8: infinite variance");
  return SameQueryCovariance{SameQueryCovariance::Form::Optimal, r, nullptr};
}

}  // namespace rfscope
