#include "core/mechanisms/geom_rf.h"

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {

const MechanismInfo& GeomRf::info() const {
  static const MechanismInfo info{
      "geom",
      "GeomRF",
      "Discretely-induced RFs with ω_l ~ Geometric(p) on {0, 1, …}, i.i.d.",
      "Likhosherstov et al. 2022 (CRT), Thm 3.5",
      false,
      false,
      Rgb{120, 94, 240}};
  return info;
}

std::vector<ParameterSpec> GeomRf::parameters() const {
  auto p = realParameter("p", "p", 0.5, 1e-9, 1 - 1e-9, "success probability of the geometric law");
  p.optional = true;
  p.autoLabel = "p* (Brent minimisation of eq. 13)";
  p.group = "Estimator";
  return {p};
}

VarianceResult GeomRf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const auto given = optionalReal(params, "p");
  const double p = given ? *given : geomPStar(pair.x, pair.y);
  result.parametersUsed.set("p", p);
  result.logVariance = geomLogVariance(pair.x, pair.y, pair.geometry.diffNormSquared, p);
  return result;
}

ParameterSet GeomRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  ParameterSet parameters;
  parameters.set("p", dataDrivenGeomP(statistics.plain()));
  return parameters;
}

Outcome<TrialModel> GeomRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                       const Eigen::VectorXd& y,
                                       const ParameterSet& resolved) const {
  return discreteTrialModel(*this, DiscreteKind{DiscreteDistribution::Geometric, false}, coupling,
                            x, y, resolved);
}

Outcome<std::unique_ptr<FeatureMap>> GeomRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                            TrialStream& stream) const {
  return drawDiscreteFeatureMap(*this, DiscreteKind{DiscreteDistribution::Geometric, false}, spec,
                                stream);
}

}  // namespace rfscope
