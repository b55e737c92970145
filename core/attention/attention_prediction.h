#pragma once
// The predicted error of random-feature attention, from closed forms.
//
// Unnormalised (exact): E‖Ŝ - SM‖²_F = Σ_ij Var Ŝ_ij, each the mechanism's closed form of the
// M-feature softmax estimate at (x_i, y_j) (under the coupling, where one exists).
//
// Normalised (delta method), one feature (divide by M for M i.i.d. features): row i shares its
// features along the keys, Cov(Ŝ_ij, Ŝ_ik) = C_jk = SM_ij SM_ik c_jk with the mechanism's
// covariance excess c of two estimates sharing ω. The linearised output error
// ε_i = (N̂_i - o_i D̂_i)/D_i has exactly E|ε_i|² = T_i/(M D_i²) with
//   T_i = Σ_jk C_jk (v_j - o_i)ᵀ(v_k - o_i),
// and E|ô_i - o_i|² ≈ T_i/(M D_i²) to first order in 1/M; the attention row likewise with
//   F_i = Σ_jk C_jk (δ_jk - A_j - A_k + |A|²),   Var D̂_i = Σ_jk C_jk / M.
// The delta method is accurate while the normaliser's relative spread √(Var D̂_i)/D_i is small
// (≲ 0.1); above ~0.2 it over-predicts the error of positive mechanisms (whose ô stays a convex
// combination), and for mechanisms with signed features E|ô - o|² is infinite at every M (D̂ has
// a density at 0): the prediction is then the typical, linearised error.
//
// Factorised evaluation (the default): the second moments along a row are short sums of
// exponential Gram terms, E[Ŝ_j Ŝ_k] = Σ_t u_tj G̃_t,jk u_tk with query-independent Grams
// G̃_t,jk = exp(-|γ_t| |y_j ∓ y_k|²/2) ≤ 1 and per-row vectors u_t (shifted by a per-row maximum, so
// nothing overflows). T, F and Var D̂ of many rows then come from matrix products G̃ U and
// (G̃ ∘ V_c V_cᵀ) U, blocked over the keys: O(L_k² |R|) per term instead of O(L_k² d_v) per row.
// Σ_j SM_j (v_j - o) = 0 lets second moments replace covariances; where the remaining expanded
// form cancels (tiny excess c, norms → 0) a row is recomputed directly.
// Direct evaluation, O(L_k²(d_v + 1)) per row, from the stable covariances. Both take the key
// dominating a row apart (v_j - o and 1 - A_j* from the small weights), so that rows at large
// norms keep their digits. Same-query covariances have closed forms for trig, pos, pos-hyp, oprf
// and GERF with real A and s = +1 (i.i.d. features); other mechanisms and couplings: Monte Carlo
// only.

#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/attention/attention_problem.h"
#include "core/math/outcome.h"
#include "core/mechanisms/estimator_spec.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

// The inner products of the keys, y_jᵀy_k, and of the centred values (v_j - v̄)ᵀ(v_k - v̄)
// (L_k × L_k each), computed once per problem and shared by the mechanisms' predictions.
struct KeyGram {
  Eigen::MatrixXd products;
  Eigen::VectorXd normSquared;    // |y_j|²
  Eigen::RowVectorXd valueMean;   // v̄
  Eigen::MatrixXd centredValues;  // V - v̄ (centring leaves v_j - o_i as it is)
  Eigen::MatrixXd valueProducts;  // (V - v̄)(V - v̄)ᵀ
  explicit KeyGram(const AttentionProblem& problem);
};

enum class PredictionMethod { Factorised, Direct };

struct RowPrediction {
  Eigen::Index row = 0;
  double logNormaliser = 0;                     // log D_i
  Eigen::VectorXd output;                       // o_i
  double logT = 0, logF = 0, logVarianceD = 0;  // one feature (see above)
};

struct AttentionPrediction {
  std::vector<RowPrediction> rows;
  // Sums over the rows, one feature: log Σ T_i/D_i², log Σ|o_i|², log Σ F_i/D_i², log Σ‖A_i‖².
  double logOutputMse = 0, logOutputNormSquared = 0;
  double logAttentionMse = 0, logAttentionNormSquared = 0;
  // log of the mean over the rows of Var D̂_i / D_i² (one feature): the delta method's validity.
  double logMeanRelativeSpreadSquared = 0;
};

// Whether the same-query covariances of the mechanism with these (resolved) parameters have a
// closed form, and why not.
Status hasAttentionPrediction(const Mechanism& mechanism, const ParameterSet& resolved,
                              Coupling coupling);

// The delta-method quantities of the given rows, one feature, i.i.d. features; the mechanism's
// parameters resolved (e.g. OPRF's A from the query/key statistics).
Outcome<AttentionPrediction> predictAttention(
    const AttentionProblem& problem, const KeyGram& gram, const Mechanism& mechanism,
    const ParameterSet& resolved, const std::vector<Eigen::Index>& rows,
    PredictionMethod method = PredictionMethod::Factorised);

// log Σ_{i ∈ rows, j} Var Ŝ_ij of the estimator (softmax kernel, M features, its coupling) and
// log Σ SM_ij² over the same entries — or why there is no closed form.
struct UnnormalisedPrediction {
  double logMse = 0;
  double logNormSquared = 0;
};
Outcome<UnnormalisedPrediction> predictUnnormalised(const AttentionProblem& problem,
                                                    const EstimatorSpec& spec,
                                                    const std::vector<Eigen::Index>& rows);

}  // namespace rfscope
