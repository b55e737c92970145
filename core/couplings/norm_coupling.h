#pragma once
// Pairwise norm coupling of orthogonal frequencies (orf-norm-coupled; Reid, Markou, Choromanski,
// Turner, Weller, "Variance-reducing couplings for random features", ICLR 2025, arXiv
// 2405.16541). An orthogonal block keeps its Haar frame of directions; its directions are paired
// (1, 2), (3, 4), … and the χ_d norms of a pair are coupled antithetically (negatively monotone):
//   r₁ = F⁻¹(t), r₂ = F⁻¹(1 - t),  t one uniform of the estimate's stream, F the χ_d CDF,
// so that every norm is still χ_d and independent of its direction: each ω stays N(0, I) and every
// estimator stays unbiased, while the in-block covariance of a pair changes. The paper solves the
// optimal-transport problem over couplings of the two norms of an orthogonal pair and finds this
// coupling optimal for positive (Laplace-type) features; for random Fourier features its optimum
// depends on |x - y|, and the antithetic rule is used for them too here. Of the paper only the
// abstract and introduction were available when this was written; the rule follows its stated
// result as summarised there and is checked here against its own closed forms and Monte Carlo.
// With odd d the last norm of a block is unpaired: F⁻¹ of its own uniform.

#include <Eigen/Core>

#include "core/random/trial_stream.h"

namespace rfscope {

// F⁻¹(t) and F⁻¹(1 - t) for the χ_d distribution, t in (0, 1); the second from the upper
// incomplete-gamma inverse, so that it does not lose the digits of 1 - t.
struct AntitheticNorms {
  double first = 0, second = 0;
};
AntitheticNorms antitheticChiNorms(int d, double t);

// The d norms of one orthogonal block: ⌊d/2⌋ uniforms, one per pair, then one for an odd d's last.
Eigen::VectorXd pairCoupledBlockNorms(TrialStream& rng, int d);

}  // namespace rfscope
