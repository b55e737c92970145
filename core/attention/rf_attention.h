#pragma once
// Random-feature (linear) attention of one draw of a feature map, and its errors against exact
// softmax attention. With φ_q = queries(X), φ_k = keys(Y) of a mechanism's feature map for the
// softmax kernel, Ŝ = φ_q φ_kᵀ estimates SM and
//
//   N̂_i = φ_q(x_i)ᵀ Σ_j φ_k(y_j) v_jᵀ,   D̂_i = φ_q(x_i)ᵀ Σ_j φ_k(y_j),   ô_i = N̂_i / D̂_i
//
// in O(L·width·d_v) (causal: prefix sums over j ≤ i). Features arrive with per-row log scales
// (feature_map.h): the keys are brought to one scale (their largest), and a query row's own scale
// cancels in ô_i, so nothing overflows at any norm; unnormalised errors add the scales back in
// logs.

#include <vector>

#include <Eigen/Core>

#include "core/attention/attention_problem.h"
#include "core/attention/exact_attention.h"
#include "core/mechanisms/feature_map.h"

namespace rfscope {

// One draw: N̂_i = numerator_i · e^{logScale_i}, D̂_i = normaliser_i · e^{logScale_i}.
struct RfAttention {
  Eigen::MatrixXd numerator;       // L × d_v
  Eigen::VectorXd normaliser;      // L
  Eigen::VectorXd logScale;        // L
  Eigen::MatrixXd output() const;  // ô_i = N̂_i / D̂_i (±inf or NaN where D̂_i = 0)
};

RfAttention rfAttention(const AttentionProblem& problem, const FeatureMatrix& queries,
                        const FeatureMatrix& keys);

// The keys' features at one common scale e^{logScale}: rows scaled by e^{ℓ_j - max ℓ} ≤ 1.
Eigen::MatrixXd commonScaleKeys(const FeatureMatrix& keys, double& logScale);

// The errors of one draw.
struct AttentionErrors {
  // ‖Ô - O‖_F / ‖O‖_F over all rows (infinite when some D̂_i = 0).
  double outputRelativeError = 0;
  // The linearised output error √(Σ_i |N̂_i - o_i D̂_i|²/D_i² / Σ_i |o_i|²): its mean square is
  // exactly the delta method's prediction (attention_prediction.h), also for signed mechanisms.
  double linearisedOutputRelativeError = 0;
  // Over the rows of `exactRows`: ‖Â - A‖_F / ‖A‖_F, the largest total variation ½Σ_j|Â_ij - A_ij|
  // of a row, and log Σ_ij (Ŝ_ij - SM_ij)² beside log Σ_ij SM_ij².
  double attentionRelativeError = 0;
  double worstRowTotalVariation = 0;
  double logUnnormalisedSquaredError = 0;
  double logUnnormalisedNormSquared = 0;
  // Rows whose estimated normaliser D̂_i ≤ 0 (never for positive features).
  double nonPositiveFraction = 0;
};

AttentionErrors attentionErrors(const AttentionProblem& problem, const ExactAttention& exact,
                                const ExactAttentionRows& exactRows, const FeatureMatrix& queries,
                                const FeatureMatrix& keys);

}  // namespace rfscope
