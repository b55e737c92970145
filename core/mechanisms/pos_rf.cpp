#include "core/mechanisms/pos_rf.h"

#include <cmath>

#include "core/couplings/fixed_norm_bessel.h"
#include "core/couplings/norm_coupled_variance.h"
#include "core/couplings/positive_conformity.h"
#include "core/math/log_math.h"
#include "core/mechanisms/exponential_features.h"

namespace rfscope {

const MechanismInfo& PosRf::info() const {
  static const MechanismInfo info{"pos",
                                  "PosRF",
                                  "Positive random features of FAVOR+: exp(ωᵀx - |x|²)",
                                  "Choromanski et al. 2021; variance from CRT §2.2",
                                  true,
                                  false,
                                  Rgb{213, 94, 0}};
  return info;
}

VarianceResult PosRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  const double u = pair.geometry.sumNormSquared;
  // Var = e^{-|x-y|²} (e^{|x+y|²} - 1). Where |x+y|² is large, -|x-y|² + |x+y|² = 4xᵀy is taken
  // from the inner product: the two norms, each rounded, would cancel (x = 1e16, y = 0.5: both
  // ~1e32, their difference 2e16, below one ulp of them).
  if (u > 40)
    result.logVariance = 4 * pair.geometry.dot + std::log1p(-std::exp(-u));
  else
    result.logVariance = u > 0 ? -pair.geometry.diffNormSquared + logExpm1(u) : kNegativeInfinity;
  return result;
}

bool PosRf::hasClosedForm(Coupling coupling) const {
  return hasPositiveClosedForms(coupling) || coupling == Coupling::OrthogonalFixedNorm ||
         coupling == Coupling::OrthogonalNormCoupled;
}

Outcome<CoupledVariance> PosRf::coupledLogVariance(Coupling coupling, std::int64_t features,
                                                   const PairInput& pair,
                                                   const VarianceResult&) const {
  const auto& g = pair.geometry;
  if (coupling == Coupling::OrthogonalFixedNorm) {  // the I-Bessel mean: biased
    const FixedNormPositiveMoments moments =
        fixedNormPositiveMoments(g.dimension, features, g.xNormSquared + g.yNormSquared,
                                 g.sumNormSquared, g.diffNormSquared);
    CoupledVariance result;
    result.logVariance = moments.logVariance;
    result.biasSign = moments.biasSign;
    result.logAbsBias = moments.logAbsBias;
    return result;
  }
  if (coupling == Coupling::OrthogonalNormCoupled) {  // two kinds of pairs: no single ρ
    CoupledVariance result;
    result.logVariance =
        normCoupledPositiveLogVariance(g.dimension, features, g.diffNormSquared, g.sumNormSquared);
    if (std::isnan(*result.logVariance))
      return Outcome<CoupledVariance>::unavailable(
          "the orf-norm-coupled variance is evaluated for |x + y|² <= 700 only");
    return result;
  }
  const Outcome<Conformity> conformity =
      positiveConformity(coupling, g.dimension, g.sumNormSquared);
  if (!conformity) return Outcome<CoupledVariance>::unavailable(conformity.reason());
  CoupledVariance result;
  result.logConformity = conformity->logConformity;
  if (coupling == Coupling::Orthogonal) {
    const double logGap =
        positiveOrthogonalityLogGap(g.dimension, features, g.diffNormSquared, g.sumNormSquared);
    if (!std::isnan(logGap)) {
      result.orthogonalityGapSign = logGap == kNegativeInfinity ? 0 : 1;
      result.logAbsOrthogonalityGap = logGap;
    }
  }
  if (coupling != Coupling::Iid)
    result.logVariance = coupledPositiveLogVariance(coupling, g.dimension, features,
                                                    g.diffNormSquared, g.sumNormSquared);
  return result;
}

Outcome<TrialModel> PosRf::trialModel(Coupling, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                      const ParameterSet&) const {
  TrialModel model;
  model.exponential.sumRe = 1;  // e^{ωᵀ(x+y) - |x|² - |y|²}
  model.logConstant = -(x.squaredNorm() + y.squaredNorm());
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> PosRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                           TrialStream& stream) const {
  return drawExponentialFeatureMap({{0.0, 0.0}, 1, false}, spec, stream);
}

Outcome<SameQueryCovariance> PosRf::sameQueryCovariance(const ParameterSet&) const {
  return SameQueryCovariance{SameQueryCovariance::Form::ExpSum, 1, nullptr};
}

}  // namespace rfscope
