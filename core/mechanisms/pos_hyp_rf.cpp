#include "core/mechanisms/pos_hyp_rf.h"

#include <cmath>

#include "core/mechanisms/exponential_features.h"

namespace rfscope {

double posHypLogVariance(double diffNormSquared, double sumNormSquared) {
  const double u = sumNormSquared;
  if (!(u > 0)) return kNegativeInfinity;  // x = -y: cosh(0) = 1 exactly
  return -kLn2 - diffNormSquared - u + 2 * logExpm1(u);
}

double sharedOmegaLogCovarianceMagnitude(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  double normGap = 0, diffNormSquared = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    normGap += (x[l] - y[l]) * (x[l] + y[l]);
    diffNormSquared += (x[l] - y[l]) * (x[l] - y[l]);
  }
  const double h = std::sin(0.5 * normGap);
  return kLn2 + 2 * std::log(std::abs(h)) - diffNormSquared;
}

const MechanismInfo& PosHypRf::info() const {
  static const MechanismInfo info{"pos-hyp",
                                  "PosRF (hyperbolic)",
                                  "FAVOR+ with the antithetic pair e^{±ωᵀx}: K̂ ∝ cosh(ωᵀ(x+y))",
                                  "Choromanski et al. 2022 (HRF), Lemma 2.2",
                                  true,
                                  false,
                                  Rgb{230, 159, 0}};
  return info;
}

VarianceResult PosHypRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  const PairGeometry& g = pair.geometry;
  // Var = ½ e^{-|x-y|² - u} (e^u - 1)², u = |x+y|². Where u is large, -|x-y|² + u = 4xᵀy is taken
  // from the inner product: the two rounded norms would cancel (see PosRf::logVariance).
  result.logVariance = g.sumNormSquared > 40
                           ? -kLn2 + 4 * g.dot + 2 * std::log1p(-std::exp(-g.sumNormSquared))
                           : posHypLogVariance(g.diffNormSquared, g.sumNormSquared);
  return result;
}

Outcome<TrialModel> PosHypRf::trialModel(Coupling, const Eigen::VectorXd& x,
                                         const Eigen::VectorXd& y, const ParameterSet&) const {
  TrialModel model;
  model.exponential.sumRe = 1;  // ½(e^{ωᵀ(x+y)} + e^{-ωᵀ(x+y)}) e^{-|x|² - |y|²}
  model.exponential.antithetic = true;
  model.logConstant = -(x.squaredNorm() + y.squaredNorm());
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> PosHypRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                              TrialStream& stream) const {
  return drawExponentialFeatureMap({{0.0, 0.0}, 1, true}, spec, stream);
}

Outcome<SameQueryCovariance> PosHypRf::sameQueryCovariance(const ParameterSet&) const {
  return SameQueryCovariance{SameQueryCovariance::Form::CoshSum, 1, nullptr};
}

}  // namespace rfscope
