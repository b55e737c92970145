#pragma once
// The predicted output error of random-feature attention, from the distribution of ONE unit of
// features: the statistic the experiments measure (E‖Ô - O‖²_F / ‖O‖²_F), not its linearisation.
//
// M features come in n = ⌊M/b⌋ independent units of b frequencies (b = 1 for i.i.d. frequencies,
// the block size for orthogonal and simplex blocks) and a remainder unit of the first r = M - nb
// frequencies of a block. Row i's estimate is a ratio of sums over the units,
//
//   ô_i - o_i = Σ_u e_u / Σ_u s_u,   e_u = (N_u - o_i S_u)/D_i,   s_u = S_u/D_i,
//
// N_u = Σ_{f∈u} φ_f(x_i) Σ_j φ_f(y_j) v_j and S_u alike with 1 for v_j (E s_u = |u|, E e_u = 0).
//   Linearised (the delta method): E|ô_i - o_i|² ≈ (n E|e_B|² + E|e_r|²)/M².
//   Saturated: each unit against the others at their mean,
//     E|ô_i - o_i|² ≈ n E[|e_B|²/(M - b + s_B)²] + E[|e_r|²/(M - r + s_r)²].
// Why saturated: positive features are heavy-tailed (PosRF's one-feature relative variance is
// e^{|x+y|²} - 1); a rare ω aligned with a query and a key carries much of E|e|², but in the ratio
// that unit dominates numerator and denominator alike and ô stays a convex combination of the
// values — the linearisation over-predicts by 1.2–2× at M = 16–256 (input scale 0.5, d = 16), and
// the second-order terms of the ratio do not help (they involve third moments larger still, e^{9
// |x|²}, and exceed the first-order term up to M ≈ 4000). The saturated integrand is bounded,
// |e_u|/(M - |u| + s_u) ≤ max_j |v_j - o_i| for M ≥ |u|, so its sample mean converges at the usual
// rate, and it tends to the linearised form as M grows. Signed features (TrigRF, ...) can make
// Σ s_u ≈ 0, where E|ô - o|² is infinite at every M: their prediction is the linearised one.
//
// The expectations are one-unit integrals, evaluated by Monte Carlo quadrature over units drawn
// from a fixed stream (QuadratureBudget; the standard error is reported) — the same units for
// every M, so a whole curve of predictions costs one pass, independent of M:
// O(units · b · (L + R) · d).

#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "core/attention/attention_problem.h"
#include "core/attention/exact_attention.h"
#include "core/math/outcome.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

struct OutputErrorPrediction {
  bool saturated = false;  // positive features: the saturated form; else linearised
  std::int64_t units = 0;  // units integrated over
  int unitSize = 1;        // b
  // The units' mean of s_u/b over the rows, exactly 1 in expectation: well below 1, the
  // normaliser's mass sits in units too rare for the quadrature (and for a draw of M): nothing
  // holds then.
  double normaliserCoverage = 0;
  std::vector<double> relativeSquared;  // per M: E‖Ô - O‖²/‖O‖² over the rows
  std::vector<double> standardError;    // of relativeSquared (quadrature)
  std::vector<double> spreadSquared;    // per M: mean over the rows of Var(Σ_u s_u)/M²
};

// Whether the mechanism under the coupling has a one-unit prediction, and why not: the units must
// be independent and unbiased (no quasi-Monte Carlo points, no fixed norms), and the feature map
// must describe its columns (feature_map_recipe.h: frequency k's columns are k, k + M, ...).
Status hasOutputErrorPrediction(const Mechanism& mechanism, const FeatureMapSpec& spec);

// How long the quadrature runs: maps of 256 frequencies (whole units), first about `first`
// frequencies in all, doubling while the prediction's relative standard error exceeds
// `targetError` at some M of the grid that the whole budget could bring to it (the error falls
// like 1/√frequencies; the others are left as they are), up to about `most` frequencies or
// `maxWork` multiply-adds in the projections ωᵀx (rows × frequencies × d), at least the first
// batch, with at least 256 units each time. Light-tailed errors stop at the first batch.
struct QuadratureBudget {
  std::int64_t first = std::int64_t{1} << 12;
  std::int64_t most = std::int64_t{1} << 17;
  double targetError = 0.03;
  double maxWork = 0x1p30;
};

// The prediction over `rows` (of `exact`, whose o_i and D_i it uses) at every M of `features`;
// `spec` gives the kernel (softmax), coupling, d and resolved parameters (its M is ignored).
// Unavailable when `cancelled` returns true (checked between maps).
Outcome<OutputErrorPrediction> predictOutputError(
    const AttentionProblem& problem, const ExactAttention& exact,
    const std::vector<Eigen::Index>& rows, const Mechanism& mechanism, const FeatureMapSpec& spec,
    const std::vector<std::int64_t>& features, std::uint64_t seed,
    const QuadratureBudget& budget = {}, const std::function<bool()>& cancelled = {});

}  // namespace rfscope
