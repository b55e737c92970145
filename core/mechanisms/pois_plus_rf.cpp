#include "core/mechanisms/pois_plus_rf.h"

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {
namespace {

constexpr double kDefaultEpsilon = 0.1;  // ε of the shift (its spec's default)

}  // namespace

const MechanismInfo& PoisPlusRf::info() const {
  static const MechanismInfo info{"pois-plus",
                                  "PoisRF+",
                                  "PoisRF on inputs shifted to positive entries: positive features",
                                  "Likhosherstov et al. 2022 (CRT), §3.2.3",
                                  true,
                                  false,
                                  Rgb{0, 90, 140}};
  return info;
}

std::vector<ParameterSpec> PoisPlusRf::parameters() const {
  auto epsilon = realParameter("epsilon", "ε", kDefaultEpsilon, 1e-12, 1e6,
                               "margin of the shift c_l = min(x_l, y_l) - ε", true);
  auto lambda = realParameter("lambda", "λ", 1.0, 1e-12, 1e12, "Poisson rate", true);
  lambda.optional = true;
  lambda.autoLabel = "λ* of the shifted inputs";
  epsilon.group = lambda.group = "Estimator";
  return {epsilon, lambda};
}

VarianceResult PoisPlusRf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const double epsilon = realOr(params, "epsilon", kDefaultEpsilon);
  result.parametersUsed.set("epsilon", epsilon);
  if (const auto lambda = optionalReal(params, "lambda")) {
    result.parametersUsed.set("lambda", *lambda);
    result.logVariance =
        poisLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, *lambda, epsilon);
    return result;
  }
  // After the shift one entry of each (x̂_l, ŷ_l) is ε and the other ε + δ_l, δ_l = |x_l - y_l|, so
  // a_l = ε(ε + δ_l) and a_l - ā = ε(δ_l - δ̄) exactly: no cancellation even when x ≈ y.
  double lambda = 0;
  result.logVariance =
      poisOptimalLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, epsilon, &lambda);
  result.parametersUsed.set("lambda", lambda);
  return result;
}

ParameterSet PoisPlusRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  // The statistics of the pairs shifted as the closed form and Monte Carlo shift them, at ε's
  // default.
  ParameterSet parameters;
  parameters.set("epsilon", kDefaultEpsilon);
  parameters.set("lambda", dataDrivenPoisLambda(statistics.shifted(kDefaultEpsilon)));
  return parameters;
}

Outcome<TrialModel> PoisPlusRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                           const Eigen::VectorXd& y,
                                           const ParameterSet& resolved) const {
  return discreteTrialModel(*this, DiscreteKind{DiscreteDistribution::Poisson, true}, coupling, x,
                            y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> PoisPlusRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                TrialStream& stream) const {
  return drawDiscreteFeatureMap(*this, DiscreteKind{DiscreteDistribution::Poisson, true}, spec,
                                stream);
}

}  // namespace rfscope
