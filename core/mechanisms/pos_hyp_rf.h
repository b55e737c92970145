#pragma once
// Hyperbolic positive random features (the antithetic pair of FAVOR+ used by HRF, Lemma 2.2): per
// ω, the features e^{-|x|²/2}(e^{ωᵀx}, e^{-ωᵀx})/√2, so K̂ = e^{-|x|²-|y|²} cosh(ωᵀ(x+y)). With u =
// |x+y|²:  Var = ½ e^{4xᵀy}(1 - e^{-u})² = ½ K² e^{-u} expm1(u)².

#include "core/mechanisms/mechanism.h"

namespace rfscope {

// log Var of one feature pair (Gaussian kernel), given |x - y|² and |x + y|².
double posHypLogVariance(double diffNormSquared, double sumNormSquared);

// log |Cov(K̂_pos-hyp(ω), K̂_trig(ω))| for one ω shared by both (the HRF hybrids' shared-ω term):
// E[e^{-|x|²-|y|²} cosh(ωᵀ(x+y)) cos(ωᵀ(x-y))] = K² cos(|x|² - |y|²), so the covariance is
// K²(cos(|x|² - |y|²) - 1) = -2 K² sin²((|x|² - |y|²)/2) <= 0. |x|² - |y|² is summed as
// (x - y)ᵀ(x + y), which does not cancel when |x| ≈ |y|.
double sharedOmegaLogCovarianceMagnitude(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

class PosHypRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;
};

}  // namespace rfscope
