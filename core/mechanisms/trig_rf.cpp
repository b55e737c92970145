#include "core/mechanisms/trig_rf.h"

#include <cmath>

#include "core/couplings/fixed_norm_bessel.h"
#include "core/couplings/norm_coupled_variance.h"
#include "core/couplings/trig_orthogonality.h"
#include "core/mechanisms/exponential_features.h"

namespace rfscope {

const MechanismInfo& TrigRf::info() const {
  static const MechanismInfo info{"trig",
                                  "TrigRF",
                                  "Random Fourier features: cos/sin of ωᵀx, ω ~ N(0, I)",
                                  "Rahimi & Recht 2007; variance from CRT §2.2",
                                  false,
                                  true,
                                  Rgb{0, 114, 178}};
  return info;
}

VarianceResult TrigRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  const double oneMinusKSquared = -std::expm1(-pair.geometry.diffNormSquared);
  result.logVariance =
      oneMinusKSquared > 0 ? std::log(0.5) + 2.0 * std::log(oneMinusKSquared) : kNegativeInfinity;
  return result;
}

bool TrigRf::hasClosedForm(Coupling coupling) const {
  return coupling == Coupling::Iid || coupling == Coupling::Orthogonal ||
         coupling == Coupling::Simplex || coupling == Coupling::OrthogonalFixedNorm ||
         coupling == Coupling::OrthogonalNormCoupled;
}

Outcome<CoupledVariance> TrigRf::coupledLogVariance(Coupling coupling, std::int64_t features,
                                                    const PairInput& pair,
                                                    const VarianceResult& one) const {
  if (coupling == Coupling::Iid)
    return Mechanism::coupledLogVariance(coupling, features, pair, one);
  const auto& g = pair.geometry;
  CoupledVariance result;
  if (coupling == Coupling::OrthogonalNormCoupled) {  // coupled and orthogonal pairs (1-D integral)
    result.logVariance =
        normCoupledTrigLogVariance(*one.logVariance, g.dimension, features, g.diffNormSquared);
    return result;
  }
  if (coupling == Coupling::Simplex) {  // the simplex block covariance (1-D integral)
    if (g.dimension < 2) return Outcome<CoupledVariance>::unavailable("simrf needs d >= 2");
    result.logVariance =
        coupledTrigLogVariance(*one.logVariance, g.dimension, features,
                               trigSimplexCovariance(g.dimension, g.diffNormSquared));
    return result;
  }
  if (coupling == Coupling::OrthogonalFixedNorm) {  // the Bessel kernel: biased
    const FixedNormTrigMoments moments =
        fixedNormTrigMoments(g.dimension, features, g.diffNormSquared);
    result.logVariance = moments.variance > 0 ? std::log(moments.variance) : kNegativeInfinity;
    result.biasSign = moments.biasSign;
    result.logAbsBias = moments.logAbsBias;
    return result;
  }
  // Orthogonal: SimRF eq. (26).
  result.logVariance = orthogonalTrigLogVariance(g.dimension, features, g.diffNormSquared);
  const double gap = trigOrthogonalityGap(g.dimension, features, g.diffNormSquared);
  result.orthogonalityGapSign = (gap > 0) - (gap < 0);
  result.logAbsOrthogonalityGap = std::log(std::abs(gap));
  return result;
}

Outcome<TrialModel> TrigRf::trialModel(Coupling, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                       const ParameterSet&) const {
  TrialModel model;
  model.exponential.diffIm = 1;  // Re e^{iωᵀ(x-y)} = cos ωᵀ(x - y)
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> TrigRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                            TrialStream& stream) const {
  return drawExponentialFeatureMap({{0.0, 0.0}, -1, false}, spec, stream);
}

Outcome<SameQueryCovariance> TrigRf::sameQueryCovariance(const ParameterSet&) const {
  return SameQueryCovariance{SameQueryCovariance::Form::CoshDifference, 1, nullptr};
}

}  // namespace rfscope
