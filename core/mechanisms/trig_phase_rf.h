#pragma once
// Random-phase Fourier features (Rahimi & Recht 2007; scikit-learn's RBFSampler): one feature
// √2 cos(ωᵀx + b) per ω ~ N(0, I), with its own phase b ~ U[0, 2π), so that the estimator of one
// feature is 2 cos(ωᵀx + b) cos(ωᵀy + b) = cos ωᵀ(x - y) + cos(ωᵀ(x + y) + 2b). The phase term has
// mean 0 and variance ½ E cos²(...) = ½, uncorrelated with the first, whence (Gaussian kernel,
// E cos ωᵀ2(x - y) = K⁴):
//   Var = 1 + ½K⁴ - K² = (1 - K²) + ½K⁴,   in [½, 1], ½ at x = y (TrigRF's pair: 0),
// evaluated as logAddExp(log(-expm1(-|x - y|²)), -ln 2 - 2|x - y|²) — no cancellation.
// Under ORF and SimRF two features of a block have independent phases, so their covariance is
// TrigRF's C (trig_orthogonality.h) and Var_M = Var/M + P C / M².
// At an equal budget of D numbers TrigRF's sin/cos pairs (D/2 frequencies) have variance
// (1 - K²)²/D and random phases (1 + ½K⁴ - K²)/D: the pairs are never worse (by (K² - ½K⁴)/D).

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class TrigPhaseRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  bool hasClosedForm(Coupling coupling) const override;
  Outcome<CoupledVariance> coupledLogVariance(Coupling coupling, std::int64_t features,
                                              const PairInput& pair,
                                              const VarianceResult& one) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;
};

// log Var of one random-phase feature at |x - y|² (Gaussian kernel).
double trigPhaseLogVariance(double diffNormSquared);

}  // namespace rfscope
