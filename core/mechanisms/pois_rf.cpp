#include "core/mechanisms/pois_rf.h"

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {

const MechanismInfo& PoisRf::info() const {
  static const MechanismInfo info{"pois",
                                  "PoisRF",
                                  "Discretely-induced RFs with ω_l ~ Poisson(λ), i.i.d.",
                                  "Likhosherstov et al. 2022 (CRT), Thm 3.4",
                                  false,
                                  false,
                                  Rgb{86, 180, 233}};
  return info;
}

std::vector<ParameterSpec> PoisRf::parameters() const {
  auto lambda = realParameter("lambda", "λ", 1.0, 1e-12, 1e12, "Poisson rate", true);
  lambda.optional = true;
  lambda.autoLabel = "λ* = √(Σ x_l² y_l² / d)";
  lambda.group = "Estimator";
  return {lambda};
}

VarianceResult PoisRf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  if (const auto lambda = optionalReal(params, "lambda")) {
    result.parametersUsed.set("lambda", *lambda);
    result.logVariance = poisLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, *lambda);
    return result;
  }
  double lambda = 0;
  result.logVariance =
      poisOptimalLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, 0.0, &lambda);
  result.parametersUsed.set("lambda", lambda);
  return result;
}

ParameterSet PoisRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  ParameterSet parameters;
  parameters.set("lambda", dataDrivenPoisLambda(statistics.plain()));
  return parameters;
}

Outcome<TrialModel> PoisRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                       const Eigen::VectorXd& y,
                                       const ParameterSet& resolved) const {
  return discreteTrialModel(*this, DiscreteKind{DiscreteDistribution::Poisson, false}, coupling, x,
                            y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> PoisRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                            TrialStream& stream) const {
  return drawDiscreteFeatureMap(*this, DiscreteKind{DiscreteDistribution::Poisson, false}, spec,
                                stream);
}

}  // namespace rfscope
