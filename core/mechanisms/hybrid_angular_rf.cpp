#include "core/mechanisms/hybrid_angular_rf.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/mechanisms/hybrid_rf.h"
#include "core/mechanisms/mechanism_parameters.h"
#include "core/mechanisms/pos_hyp_rf.h"

namespace rfscope {

AngleFraction angleFraction(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  const double nx = x.norm(), ny = y.norm();
  if (!(nx > 0) || !(ny > 0)) return {std::numeric_limits<double>::quiet_NaN(), 0};
  // x/|x| ± y/|y| = ((x ± y)|y| ± y(|x| - |y|)) / (|x||y|), with |x| - |y| = (x-y)ᵀ(x+y)/(|x|+|y|):
  // every piece is accurate even when x ≈ ±y, unlike normalising first or taking acos of the
  // cosine.
  double cross = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l)
    cross += (x[l] - y[l]) * (x[l] + y[l]);
  const double normGap = cross / (nx + ny);
  double minus = 0, plus = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const double m = (x[l] - y[l]) * ny - y[l] * normGap;
    const double p = (x[l] + y[l]) * ny + y[l] * normGap;
    minus += m * m;
    plus += p * p;
  }
  const double a = std::sqrt(minus), b = std::sqrt(plus);
  return {2 * std::atan2(a, b) / std::numbers::pi, 2 * std::atan2(b, a) / std::numbers::pi};
}

const MechanismInfo& HybridAngularRf::info() const {
  static const MechanismInfo info{
      "hybrid-angular",
      "HRF (angular)",
      "Bipolar hybrid of hyperbolic PosRF and TrigRF weighted by an angular estimate of θ/π",
      "Choromanski et al. 2022 (HRF), Thm 3.1, Lemma 3.2",
      false,
      false,
      Rgb{120, 120, 120}};
  return info;
}

std::vector<ParameterSpec> HybridAngularRf::parameters() const {
  auto n = integerParameter("n", "n", 8, 1, 1000000, "number of Gaussian τ's estimating θ/π");
  auto shared = booleanParameter("shared", "Shared ω", false,
                                 "both base estimators use the same ω's (adds their covariance)");
  n.group = shared.group = "Estimator";
  return {n, shared};
}

VarianceResult HybridAngularRf::logVariance(const PairInput& pair,
                                            const ParameterSet& params) const {
  VarianceResult result;
  const auto n = static_cast<double>(integerOr(params, "n", 8));
  const bool shared = booleanOr(params, "shared", false);
  result.parametersUsed.set("n", static_cast<std::int64_t>(n));
  result.parametersUsed.set("shared", shared);
  const AngleFraction angle = angleFraction(pair.x, pair.y);
  const double q = angle.q, r = angle.complement;
  if (std::isnan(q)) {
    result.logVariance =
        Outcome<double>::unavailable("the angular hybrid needs x ≠ 0 and y ≠ 0 (θ is undefined)");
    return result;
  }
  const auto& g = pair.geometry;
  const double spread = q * r / n;
  const double logTrig = -kLn2 + 2 * std::log(-std::expm1(-g.diffNormSquared));
  const double logPos = posHypLogVariance(g.diffNormSquared, g.sumNormSquared);
  const double logPosWeight = std::log(q * q + spread);
  const double logTrigWeight = std::log(r * r + spread);
  double logVar = logAddExp(logPosWeight + logPos, logTrigWeight + logTrig);
  if (shared) {
    // + 2 E[λ̂(1-λ̂)] Cov, E[λ̂(1-λ̂)] = q(1-q)(1-1/n) >= 0 and Cov <= 0.
    const double crossMoment = q * r * (1 - 1 / n);
    if (crossMoment > 0)
      logVar = logSubExp(
          logVar, std::log(2 * crossMoment) + sharedOmegaLogCovarianceMagnitude(pair.x, pair.y));
  }
  result.logVariance = logVar;
  return result;
}

Outcome<TrialModel> HybridAngularRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                                const Eigen::VectorXd& y,
                                                const ParameterSet& resolved) const {
  return hybridTrialModel(HybridCoefficient::Angular, coupling, x, y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> HybridAngularRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                     TrialStream& stream) const {
  return drawHybridFeatureMap(HybridCoefficient::Angular, spec, stream);
}

}  // namespace rfscope
