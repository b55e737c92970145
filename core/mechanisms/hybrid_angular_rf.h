#pragma once
// The angular bipolar hybrid estimator (HRF, Choromanski et al. 2022):
//   K̂ = λ̂ K̂_pos-hyp + (1 - λ̂) K̂_trig,  λ̂ = fraction of n Gaussian τ's whose hyperplane separates x,
//   y,
// so E λ̂ = q = θ/π and E λ̂² = q² + q(1-q)/n (Lemma 3.2), λ̂ independent of the ω's. One feature =
// one ω for each base estimator (m = 1); M features divide the variance by M.
// Thm 3.1 (base estimators with independent ω's):
//   Var = E[λ̂²] Var_pos-hyp + E[(1-λ̂)²] Var_trig.
// If both base estimators share their ω's, the covariance K² (cos(|x|²-|y|²) - 1) adds
//   - 2 E[λ̂(1-λ̂)] K² (1 - cos(|x|²-|y|²)) = - 4 q(1-q)(1-1/n) K² sin²((|x|²-|y|²)/2).

#include "core/mechanisms/mechanism.h"

namespace rfscope {

// q = θ/π for the angle θ between x and y, and 1 - q, each to full relative precision (also for
// x ≈ y and x ≈ -y); q is NaN if x or y is 0.
struct AngleFraction {
  double q;
  double complement;
};
AngleFraction angleFraction(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

class HybridAngularRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
};

}  // namespace rfscope
