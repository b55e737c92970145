#pragma once
// The Gaussian bipolar hybrid estimator (HRF, Choromanski et al. 2022):
//   K̂ = λ̂ K̂_pos-hyp + (1 - λ̂) K̂_trig,  λ̂ independent of the base estimators' ω's.
// The HRF text available to us has the heading "Gaussian Lambda Coefficients" without its body, so
// the coefficient is reconstructed from the paper's general construction (λ = a + E[ρ₁ᵀρ₂],
// estimated by n features of τ): with a bandwidth b,
//   λ(x, y) = 1 - k,  k = exp(-|x - y|² / (2b²)),
//   ρ₁(z) = ρ₂(z) = (i/√n)(sin(τⱼᵀz/b), cos(τⱼᵀz/b))ⱼ, τⱼ ~ N(0, I_d) i.i.d., a = 1, so
//   λ̂ = 1 - (1/n) Σⱼ cos(τⱼᵀ(x - y)/b).
// λ̂ is unbiased for λ but, unlike the angular coefficient, not confined to [0, 1]: it ranges over
// [0, 2], so the TrigRF weight 1 - λ̂ can be negative. The hybrid stays unbiased all the same,
// because both base estimators are unbiased and λ̂ is independent of them. E cos(τᵀΔ/b) = k and
// Var cos(τᵀΔ/b) = (1 + k⁴)/2 - k² = (1 - k²)²/2, hence
//   E λ̂ = 1 - k,  E λ̂² = (1 - k)² (1 + (1 + k)²/(2n)),  E (1 - λ̂)² = k² + (1 - k)²(1 + k)²/(2n).
// One feature = one ω for each base estimator (m = 1); M features divide the variance by M.
// With K̂ - K = λ̂(K̂_pos - K) + (1 - λ̂)(K̂_trig - K) and λ̂ independent of both:
//   Var = E[λ̂²] Var_pos-hyp + E[(1-λ̂)²] Var_trig + 2 E[λ̂(1-λ̂)] Cov(K̂_pos-hyp, K̂_trig),
// where Cov = 0 for independent ω's (HRF Thm 3.1) and K² (cos(|x|² - |y|²) - 1) for shared ω's.
// E[λ̂(1-λ̂)] = (1 - k)(k - (1 - k)(1 + k)²/(2n)) can be negative: the shared covariance then adds.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

// The moments of λ̂ that the variance needs, each to full relative precision for any |x - y|.
struct GaussianLambdaMoments {
  double logSecondMoment;            // log E[λ̂²]
  double logComplementSecondMoment;  // log E[(1 - λ̂)²]
  double crossMoment;                // E[λ̂(1 - λ̂)]
};
GaussianLambdaMoments gaussianLambdaMoments(double diffNormSquared, double bandwidth,
                                            std::int64_t taus);

class HybridGaussianRf final : public Mechanism {
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
