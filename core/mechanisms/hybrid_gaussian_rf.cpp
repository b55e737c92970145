#include "core/mechanisms/hybrid_gaussian_rf.h"

#include <cmath>

#include "core/mechanisms/hybrid_rf.h"
#include "core/mechanisms/mechanism_parameters.h"
#include "core/mechanisms/pos_hyp_rf.h"

namespace rfscope {

GaussianLambdaMoments gaussianLambdaMoments(double diffNormSquared, double bandwidth,
                                            std::int64_t taus) {
  const double t = diffNormSquared / (2 * bandwidth * bandwidth);
  const double k = std::exp(-t);
  const double lambda = -std::expm1(-t);  // E λ̂ = 1 - k, exact for x ≈ y
  const double n = static_cast<double>(taus);
  // Var λ̂ = (1 - k)²(1 + k)²/(2n): factoring out (1 - k)² keeps E λ̂² accurate (and
  // representable) when 1 - k underflows.
  const double spreadFactor = (1 + k) * (1 + k) / (2 * n);
  GaussianLambdaMoments moments;
  moments.logSecondMoment = 2 * std::log(lambda) + std::log1p(spreadFactor);
  moments.logComplementSecondMoment =
      logAddExp(-2 * t, 2 * std::log(lambda) + std::log(spreadFactor));
  moments.crossMoment = lambda * (k - lambda * spreadFactor);
  return moments;
}

const MechanismInfo& HybridGaussianRf::info() const {
  static const MechanismInfo info{
      "hybrid-gaussian",
      "HRF (Gaussian)",
      "Bipolar hybrid of hyperbolic PosRF and TrigRF weighted by λ̂ = 1 - mean cos(τᵀ(x-y)/b), an "
      "unbiased estimate of 1 - exp(-|x-y|²/(2b²)) (coefficient reconstructed: the HRF text lacks "
      "it)",
      "Choromanski et al. 2022 (HRF), Thm 3.1 with Gaussian λ reconstructed from the general HRF "
      "construction",
      false,
      false,
      Rgb{60, 60, 60}};
  return info;
}

std::vector<ParameterSpec> HybridGaussianRf::parameters() const {
  auto n = integerParameter("n", "n", 8, 1, 1000000,
                            "number of Gaussian τ's estimating λ = 1 - exp(-|x-y|²/(2b²))");
  auto bandwidth = realParameter("bandwidth", "Bandwidth b", 1.0, 1e-6, 1e6,
                                 "bandwidth b of the Gaussian coefficient λ", true);
  auto shared = booleanParameter("shared", "Shared ω", false,
                                 "both base estimators use the same ω's (adds their covariance)");
  n.group = bandwidth.group = shared.group = "Estimator";
  return {n, bandwidth, shared};
}

VarianceResult HybridGaussianRf::logVariance(const PairInput& pair,
                                             const ParameterSet& params) const {
  VarianceResult result;
  const std::int64_t n = integerOr(params, "n", 8);
  const double bandwidth = realOr(params, "bandwidth", 1.0);
  const bool shared = booleanOr(params, "shared", false);
  result.parametersUsed.set("n", n);
  result.parametersUsed.set("bandwidth", bandwidth);
  result.parametersUsed.set("shared", shared);
  const auto& g = pair.geometry;
  const GaussianLambdaMoments lambda = gaussianLambdaMoments(g.diffNormSquared, bandwidth, n);
  const double logTrig = -kLn2 + 2 * std::log(-std::expm1(-g.diffNormSquared));
  const double logPos = posHypLogVariance(g.diffNormSquared, g.sumNormSquared);
  double logVar =
      logAddExp(lambda.logSecondMoment + logPos, lambda.logComplementSecondMoment + logTrig);
  if (shared) {
    // + 2 E[λ̂(1-λ̂)] Cov with Cov <= 0: it lowers the variance where E[λ̂(1-λ̂)] > 0 and raises
    // it where E[λ̂(1-λ̂)] < 0.
    const double logCovariance = sharedOmegaLogCovarianceMagnitude(pair.x, pair.y);
    const double c = lambda.crossMoment;
    if (c > 0) logVar = logSubExp(logVar, std::log(2 * c) + logCovariance);
    if (c < 0) logVar = logAddExp(logVar, std::log(-2 * c) + logCovariance);
  }
  result.logVariance = logVar;
  return result;
}

Outcome<TrialModel> HybridGaussianRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                                 const Eigen::VectorXd& y,
                                                 const ParameterSet& resolved) const {
  return hybridTrialModel(HybridCoefficient::Gaussian, coupling, x, y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> HybridGaussianRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                      TrialStream& stream) const {
  return drawHybridFeatureMap(HybridCoefficient::Gaussian, spec, stream);
}

}  // namespace rfscope
