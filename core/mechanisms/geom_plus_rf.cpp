#include "core/mechanisms/geom_plus_rf.h"

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {
namespace {

constexpr double kDefaultEpsilon = 0.1;  // ε of the shift (its spec's default)

}  // namespace

const MechanismInfo& GeomPlusRf::info() const {
  static const MechanismInfo info{"geom-plus",
                                  "GeomRF+",
                                  "GeomRF on inputs shifted to positive entries: positive features",
                                  "Likhosherstov et al. 2022 (CRT), §3.2.3",
                                  true,
                                  false,
                                  Rgb{150, 60, 160}};
  return info;
}

std::vector<ParameterSpec> GeomPlusRf::parameters() const {
  auto epsilon = realParameter("epsilon", "ε", kDefaultEpsilon, 1e-12, 1e6,
                               "margin of the shift c_l = min(x_l, y_l) - ε", true);
  auto p = realParameter("p", "p", 0.5, 1e-9, 1 - 1e-9, "success probability of the geometric law");
  p.optional = true;
  p.autoLabel = "p* of the shifted inputs";
  epsilon.group = p.group = "Estimator";
  return {epsilon, p};
}

VarianceResult GeomPlusRf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const double epsilon = realOr(params, "epsilon", kDefaultEpsilon);
  const auto given = optionalReal(params, "p");
  double p = 0;
  if (given) {
    p = *given;
  } else {
    Eigen::VectorXd x, y;
    positiveShift(pair.x, pair.y, epsilon, x, y);
    p = geomPStar(x, y);
  }
  result.parametersUsed.set("epsilon", epsilon);
  result.parametersUsed.set("p", p);
  result.logVariance = geomLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, p, epsilon);
  return result;
}

ParameterSet GeomPlusRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  // The statistics of the pairs shifted as the closed form and Monte Carlo shift them, at ε's
  // default.
  ParameterSet parameters;
  parameters.set("epsilon", kDefaultEpsilon);
  parameters.set("p", dataDrivenGeomP(statistics.shifted(kDefaultEpsilon)));
  return parameters;
}

Outcome<TrialModel> GeomPlusRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                           const Eigen::VectorXd& y,
                                           const ParameterSet& resolved) const {
  return discreteTrialModel(*this, DiscreteKind{DiscreteDistribution::Geometric, true}, coupling, x,
                            y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> GeomPlusRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                TrialStream& stream) const {
  return drawDiscreteFeatureMap(*this, DiscreteKind{DiscreteDistribution::Geometric, true}, spec,
                                stream);
}

}  // namespace rfscope
