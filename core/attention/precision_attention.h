#pragma once
// Random-feature attention computed as a reduced-precision implementation computes it: the feature
// maps and the attention in float16, bfloat16, float32 (emulated, core/math/reduced_precision.h)
// or float64, with the stabilisers implementations apply. The model of the arithmetic:
//
// - Inputs, frequencies, values and scalar constants are stored in the working precision p.
// - Elementwise operations (the d^{-1/4} scaling, squares, differences, e^x, cos, the 1/√M factor,
//   + ε) round their exact result to p once (e^x, cos and sin from RFScope's reproducible double
//   functions, then rounded).
// - Matrix products and sums over an axis (ωᵀx, Σ_l q_l², φ_kᵀ[V 1], φ_q · (φ_kᵀ[V 1])) take
//   their inputs in p, accumulate in float32 in index order — as tensor cores and PyTorch's
//   reductions do for float16/bfloat16 inputs (the products of two such numbers are exact in
//   float32) — and round the result to p. In float64 everything is double.
// - Causal attention keeps the running sums Σ_{j≤i} φ_k(y_j)[v_j, 1]ᵀ in p, rounded after each
//   addition (the state of a recurrent or chunked implementation).
// - ô_i = N̂_i · (1/D̂_i), both roundings in p (performer-pytorch's D_inv): D̂ = 0 gives ±inf or NaN,
//   D̂ = inf gives 0 or NaN.
//
// Mechanisms (their FeatureMapRecipe, softmax kernel): PosRF φ = e^{ωᵀx - |x|²/2}/√M, its
// hyperbolic variant (ω and -ω, 1/√(2M)), OPRF D e^{A|ω|² + Bωᵀx - |x|²/2}/√M, TrigRF
// e^{|x|²/2}(cos ωᵀx, sin ωᵀx)/√M. For the exponential maps the exponent is P - |x|²/2 with P the
// frequency-dependent part (ωᵀx, ±ωᵀx, Bωᵀx + A|ω|² + log D); for TrigRF the magnitude's
// exponent is +|x|²/2 and the stabilisers act on it.

#include <Eigen/Core>

#include "core/math/reduced_precision.h"
#include "core/mechanisms/feature_map_recipe.h"

namespace rfscope {

enum class Stabiliser {
  None,          // e^{P - |x|²/2}: the ‖x‖²/2 term inside the exponent, nothing subtracted
  NormFactor,    // e^{P} · e^{-|x|²/2}: the term applied after the exponential
  RowMax,        // P - max_k P per row on both sides (keys too: biased, each key rescaled)
  GlobalMax,     // P - max over all rows and features, on each side
  PerformerMax,  // queries per row, keys over all keys — Google's and performer-pytorch's max
  Performer,     // PerformerMax, then ratio · (e^{…} + ε): performer-pytorch's softmax_kernel
  ExponentMax,   // the whole exponent's max (P - |x|²/2): per query row, over all keys
};

const char* stabiliserId(Stabiliser s);
const char* stabiliserName(Stabiliser s);

struct PrecisionSettings {
  Precision precision = Precision::Float32;
  Stabiliser stabiliser = Stabiliser::None;
  double eps = 1e-4;  // Performer only (positive features; TrigRF's signed ones get none)
};

// True for the recipes this model covers: the GeneralizedExponential form with a real A (PosRF,
// its hyperbolic variant, OPRF, TrigRF), softmax kernel.
bool precisionModelCovers(const FeatureMapRecipe& recipe);

// The features of raw inputs q (rows; scaled by d^{-1/4} here, d = q.cols()) on one side, every
// entry a number of the working precision (±inf, NaN and 0 included). L × width.
Eigen::MatrixXd precisionFeatures(const FeatureMapRecipe& recipe, const Eigen::MatrixXd& raw,
                                  bool queries, const PrecisionSettings& settings);

struct PrecisionAttention {
  Eigen::MatrixXd output;      // L × d_v
  Eigen::VectorXd normaliser;  // D̂_i, L
};

// Linear attention of features already in precision p; values rounded to p here.
PrecisionAttention precisionAttention(const Eigen::MatrixXd& queryFeatures,
                                      const Eigen::MatrixXd& keyFeatures,
                                      const Eigen::MatrixXd& values, bool causal, Precision p);

// A · B as a reduced-precision product: inputs in p, float32 accumulation in index order (double
// for Float64), the result rounded to p.
Eigen::MatrixXd precisionProduct(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, Precision p);

}  // namespace rfscope
