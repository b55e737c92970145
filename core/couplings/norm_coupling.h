#pragma once
// Pairwise norm coupling of orthogonal frequencies (orf-norm-coupled; Reid, Markou, Choromanski,
// Turner, Weller, "Variance-reducing couplings for random features", ICLR 2025, arXiv
// 2405.16541). An orthogonal block keeps its Haar frame of directions; its directions are paired
// (1, 2), (3, 4), … and the χ_d norms of a pair are coupled antithetically (negatively monotone):
//   r₁ = F⁻¹(t), r₂ = F⁻¹(1 - t),  t one uniform of the estimate's stream, F the χ_d CDF,
// so that every norm is still χ_d and independent of its direction: each ω stays N(0, I) and every
// estimator stays unbiased, while the in-block covariance of a pair changes. Of the paper only the
// abstract, the introduction and summaries were available when this was written: they state that
// the optimal-transport problem over couplings of the norms of two orthogonal frequencies is solved
// exactly for random Fourier and random Laplace (positive) features. That the solution for positive
// features is this negatively monotone coupling, and that for random Fourier features it depends on
// |x - y|, is the paper's result as summarised, not checked against its text here; the antithetic
// rule is used for every mechanism. The closed forms here agree: for PosRF it lowers the pair's
// covariance below ORF's at every |x + y|; for TrigRF it beats ORF at small |x - y| and loses at
// large.
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
