#pragma once
// How a mechanism maps onto the Monte Carlo engine's generic trial samplers: the coefficients the
// samplers need for one pair (x, y), chosen by the mechanism (Mechanism::trialModel). The samplers
// themselves (core/montecarlo/fast_trial.h, the full path) know no mechanism.
//   Exponential: one generalized exponential per feature product (exponential_feature_model.h);
//   Discrete:    integer ω with i.i.d. Poisson or geometric coordinates (discrete_feature_model.h);
//   Hybrid:      λ̂ K̂_pos-hyp + (1 - λ̂) K̂_trig per feature, λ̂ from n Gaussian τ's (HRF);
//   Kernel:      the mechanism's own trial (trial_kernel.h), run on the full path on the CPU —
//                e.g. DERF's exp(Σ_l w_l ω_l² + Σ_l v_l ω_l), which needs every coordinate of ω.
// Light enough for device code (the CUDA samplers include it for HybridCoefficient).

#include <cstdint>
#include <memory>
#include <vector>

#include "core/mechanisms/discrete_feature_model.h"
#include "core/mechanisms/exponential_feature_model.h"

namespace rfscope {

enum class TrialFamily { Exponential, Discrete, Hybrid, Kernel };

class TrialKernel;

// How the hybrid's λ̂ is made: the angular coefficient (fraction of τ hyperplanes separating x and
// y) or the Gaussian one (1 - mean cos(τᵀ(x - y)/b)).
enum class HybridCoefficient { Angular, Gaussian };

// Discretely-induced features on the pair (shifted for the positive variants): see
// DiscreteFeatureModel, which points into weights and signs.
struct DiscreteTrialModel {
  DiscreteDistribution distribution = DiscreteDistribution::Poisson;
  double parameter = 1;            // λ or p
  std::vector<double> weights;     // per coordinate
  std::vector<signed char> signs;  // per coordinate
};

struct HybridTrialModel {
  std::int64_t taus = 8;  // n
  bool shared = false;    // ω shared by both base estimators
  HybridCoefficient coefficient = HybridCoefficient::Angular;
  double bandwidth = 1;       // b of the Gaussian coefficient
  double posLogConstant = 0;  // -|x|² - |y|² (the pos-hyp constant)
};

struct TrialModel {
  TrialFamily family = TrialFamily::Exponential;
  ExponentialFeatureModel exponential;        // Exponential
  DiscreteTrialModel discrete;                // Discrete
  HybridTrialModel hybrid;                    // Hybrid
  std::shared_ptr<const TrialKernel> kernel;  // Kernel
  double logConstant = 0;                     // added to the log of every trial (constant factors)
  bool fourthMomentInfinite = false;  // E[K̂⁴] = ∞: a variance estimate cannot converge
};

}  // namespace rfscope
