#pragma once
// Feature maps: a mechanism's random features on whole data matrices, the building block of
// kernel matrices, linear attention and kernel regression. One FeatureMap is ONE draw of the
// randomness (the frequencies ω from frequencies(coupling, d, M, stream), plus whatever else the
// mechanism draws, e.g. the hybrids' τ) for a mechanism, kernel, coupling, M, d and resolved
// parameters; Mechanism::drawFeatureMap makes one.
//
// It maps a data matrix X (L × d, one point per row) to features in a numerically safe form:
//
//   feature(i, k) = values(i, k) · exp(logScale(i)),   |values(i, k)| ≤ 1 (up to rounding),
//
// so that features of any size survive: positive softmax features at |x|² ≈ 50, or at scales where
// exp(ωᵀx) > 1e308, are finite values with a large logScale. logScale(i) is k·ln 2 for an integer
// k, chosen from the row's largest feature, so rescaling by it is exact (features that a double
// can hold are reproduced bit for bit) — up to |k| = 2^20; beyond (exponents past 7e5, inputs of
// norm ~1e3 and up) it is the row's largest exponent itself; bounded features under the Gaussian
// kernel (TrigRF) keep logScale 0. Entries below about e^-745 of their row's largest flush to zero:
// when one row's features span more than a double's range (differences of ωᵀx beyond ~700), K̂ keeps
// the terms whose factors survive on both sides — exact where the largest terms share their ω
// (nearby points), but 0 where the true sum of two such far-apart points is one far-out term.
//
// The two sides: queries(X) = f⁽¹⁾ and keys(Y) = f⁽²⁾ (they differ for GERF with s = -1 or a
// complex A, and for the hybrids; symmetric() says when they are equal), and
//
//   K̂(x_i, y_j) = Σ_k Q.values(i, k) K.values(j, k) · exp(Q.logScale(i) + K.logScale(j))
//
// is the mechanism's M-feature estimate of the kernel (Gaussian or softmax), the 1/M included:
// unbiased, and equal to the Monte Carlo engine's trial value for the same pair and stream
// (to rounding). kernelEstimates / logKernelEstimates compute it with one matrix product.
//
// Width (columns of both sides), per frequency ω:
//   PosRF, OPRF, GERF with real A and s = +1:  1   exp(ωᵀx - ...)
//   TrigRF, GERF otherwise:                     2   (Re f, Im f); K̂ = Re f⁽¹⁾ Re f⁽²⁾ - Im f⁽¹⁾ Im
//   f⁽²⁾ PosRF (hyperbolic):                         2   the antithetic pair e^{±ωᵀx} PoisRF,
//   GeomRF and their "+" variants:      1   (ω integer) HRF angular: 4 + 4n   (see hybrid_rf.h) HRF
//   Gaussian:                               2 + 8n
//   MaclaurinRF:                            1   per feature (a degree and its sign vectors)
// so the width is M times that (width()).
//
// Computation (feature_map_kernels.h): the projections ωᵀx of a block of rows by a vectorised
// product in which every ωᵀx is the sum of ω_l x_l over l = 0, 1, …, d-1 in order (no fused
// multiply-add), then e^x, cos and sin over each row (reproducibleExp, reproducibleSinCos) — the
// same bits on every machine and instruction set. Rows are independent: mapping X in blocks of
// rows gives the same rows, bit for bit. A FeatureMap is immutable once drawn: several threads may
// map with it at once.
//
// queryRows/keyRows write the features straight into row-major storage (NumPy's layout), in double
// (the same numbers as queries/keys) or in float. The exponential and random-phase maps compute
// float features in single precision throughout: projections summed in float, e^x and cos in
// float (reproducible_exp_float.h, reproducible_trig.h), so that a float feature differs from the
// double one by the rounding of the inputs and ω to float and of d sums, about
// d·2^-24·Σ_l |ω_l x_l| in the exponent or the angle, plus 2 ulp (tests/mechanisms bound it);
// the other maps round their double features.

#include <cstdint>
#include <memory>

#include <Eigen/Core>

#include "core/couplings/coupling.h"
#include "core/couplings/frequencies.h"
#include "core/math/kernel.h"
#include "core/params/parameter_set.h"

namespace rfscope {

struct FeatureMapRecipe;

struct FeatureMatrix {
  Eigen::MatrixXd values;    // L × width, |values| ≤ 1
  Eigen::VectorXd logScale;  // L: feature = values · exp(logScale), logScale = k·ln 2 (|k| < 2^20)
};

// Rows of features in row-major storage: row i's width() values at values + i·stride, its scale
// at logScale[i] (feature = value · exp(logScale), as FeatureMatrix).
template <class T>
struct FeatureRows {
  T* values = nullptr;
  Eigen::Index stride = 0;
  double* logScale = nullptr;
  // Plain numbers: each row's values times exp(logScale), its scale left 0 (applyLogScales).
  bool plain = false;
};

// Input points as NumPy holds them, one row per point.
using RowMajorMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using InputRows = Eigen::Ref<const RowMajorMatrixXd>;

struct FeatureMapSpec {
  Kernel kernel = Kernel::Gaussian;
  Coupling coupling = Coupling::Iid;
  std::int64_t features = 1;  // M
  int dimension = 0;          // d of the inputs
  // The mechanism's parameters with every automatic one resolved (resolveParameters at a pair, or
  // Mechanism::dataDrivenParameters for sets).
  ParameterSet parameters;
  // PoisRF+ and GeomRF+ only: ONE shift c for the whole data (features of x - c and y - c), with
  // x_l - c_l > 0 for every point, e.g. positiveShift(X, Y, ε). The positive variants' closed
  // forms and Monte Carlo shift each pair by its own min(x, y) - ε; a feature map must use one
  // shift for all pairs, which the Gaussian kernel does not see (the softmax scale uses x itself).
  Eigen::VectorXd shift;
  int simplexPlusIterations = kDefaultSimplexPlusIterations;
};

class FeatureMap {
 public:
  virtual ~FeatureMap() = default;

  int dimension() const { return dimension_; }
  std::int64_t features() const { return features_; }
  Eigen::Index width() const { return width_; }
  // queries(X) == keys(X) for every X.
  virtual bool symmetric() const { return true; }
  // Whether queryRows/keyRows compute the rows directly (queries/keys transpose them), rather
  // than copying queries/keys.
  virtual bool mapsRows() const { return false; }
  // What the map computes, for reproduction elsewhere (feature_map_recipe.h); false for maps
  // without such a form (the discrete, hybrid and Maclaurin mechanisms).
  virtual bool describe(FeatureMapRecipe&) const { return false; }

  // f⁽¹⁾ of the rows of x (L × d), into `out` (its storage is reused).
  void queries(const Eigen::Ref<const Eigen::MatrixXd>& x, FeatureMatrix& out) const;
  // f⁽²⁾ of the rows of y.
  void keys(const Eigen::Ref<const Eigen::MatrixXd>& y, FeatureMatrix& out) const;
  FeatureMatrix queries(const Eigen::Ref<const Eigen::MatrixXd>& x) const;
  FeatureMatrix keys(const Eigen::Ref<const Eigen::MatrixXd>& y) const;
  // f⁽¹⁾ and f⁽²⁾ of the rows of x into row-major storage of x.rows() rows, in double or float.
  template <class T>
  void queryRows(const InputRows& x, FeatureRows<T> out) const;
  template <class T>
  void keyRows(const InputRows& x, FeatureRows<T> out) const;

 protected:
  enum class Side { Queries, Keys };
  FeatureMap(int dimension, std::int64_t features, Eigen::Index width)
      : dimension_(dimension), features_(features), width_(width) {}
  // Fills out.values (resized to rows × width) and out.logScale for one side.
  virtual void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
                   FeatureMatrix& out) const = 0;
  // Row-major features; by default map()'s, copied (and rounded to float).
  virtual void mapRows(Side side, const InputRows& x, FeatureRows<double> out) const;
  virtual void mapRows(Side side, const InputRows& x, FeatureRows<float> out) const;
  // map() for maps that implement mapRows: the rows in blocks, transposed into out.values.
  void mapThroughRows(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
                      FeatureMatrix& out) const;

 private:
  int dimension_;
  std::int64_t features_;
  Eigen::Index width_;
};

// K̂(x_i, y_j) for all i, j as plain numbers (±inf where a double cannot hold one).
Eigen::MatrixXd kernelEstimates(const FeatureMatrix& queries, const FeatureMatrix& keys);
// log |K̂(x_i, y_j)| (never overflows); the signs into *signs (-1, 0, +1) when given.
Eigen::MatrixXd logKernelEstimates(const FeatureMatrix& queries, const FeatureMatrix& keys,
                                   Eigen::MatrixXi* signs = nullptr);

// The shift of PoisRF+ / GeomRF+ feature maps for data X and Y (rows are points):
// c_l = min over all points of x_l and y_l, minus ε, so that every shifted entry is ≥ ε.
Eigen::VectorXd positiveShift(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              const Eigen::Ref<const Eigen::MatrixXd>& y, double epsilon);

// ---- For implementations ----

// Ω[:, :d] Xᵀ: every projection ωᵀx, one row per frequency and one column per point, from one
// matrix product over all rows of X; and |x|² per point. (Frequencies of a structured coupling
// have n ≥ d columns; the inputs' missing coordinates are the zero padding.)
struct Projections {
  Eigen::MatrixXd transposedInput;  // Xᵀ, d × L
  Eigen::MatrixXd onFrequencies;    // rows(Ω) × L
  Eigen::RowVectorXd normSquared;   // |x|², L
};
void projectOnFrequencies(const Eigen::MatrixXd& omega, const Eigen::Ref<const Eigen::MatrixXd>& x,
                          Projections& out);

// Exponentiates a matrix of log-magnitudes in place, one column per point, with a power-of-two
// stabiliser per column: column i becomes exp(e - k_i ln 2), k_i from its largest entry, so that
// its largest is in (1/2, 1]; logScale(i) = k_i ln 2 (the largest entry itself where |k_i| ≥ 2^20).
// Exactly exp(e)·2^{-k_i} wherever the column's exp(e) are normal doubles (reproducibleExp),
// otherwise from the reduced arguments, which neither overflow nor underflow prematurely. -inf
// gives 0.
void exponentiateColumns(Eigen::MatrixXd& exponents, Eigen::VectorXd& logScale);

// The stabiliser of one row (or column) of log-magnitudes e, from its smallest and largest entry:
// the features are exponentials(e, high, low, factor, ·) = e^((e - high) - low)·factor and the
// row's logScale, as exponentiateColumns describes (in float: |k| < 2^15, exact where e^e are
// normal floats).
template <class T>
struct RowStabiliser {
  T high = 0, low = 0, factor = 1;
  double logScale = 0;
};
template <class T>
RowStabiliser<T> rowStabiliser(T smallest, T largest, bool empty);

// Rows of features as plain numbers: each row's values times exp(logScale) in place — exactly
// 2^k where logScale = k·ln 2 — ±inf or 0 where T cannot hold a feature; the scales become 0.
template <class T>
void applyLogScales(FeatureRows<T> rows, Eigen::Index count, Eigen::Index width);

// For maps that write plain rows as they compute them: the factor to multiply row i's features by
// last — 1, or for a plain row 2^k where its logScale is k·ln 2 and 2^k a normal T (the scale
// then becomes 0) — and, once the row is written, applyLogScales for a plain row whose scale is
// left.
template <class T>
T takeRowScale(FeatureRows<T> rows, Eigen::Index i);
template <class T>
void finishRow(FeatureRows<T> rows, Eigen::Index i, Eigen::Index width);

// Adds the kernel's log-scale to a row's exponents: 0 for the Gaussian kernel, |x|²/2 for the
// softmax kernel (SM = e^{|x|²/2} K e^{|y|²/2}, shared half and half by the two sides).
double kernelRowLogScale(Kernel kernel, double normSquared);

}  // namespace rfscope
