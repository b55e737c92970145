#pragma once
// The fast path of one trial for the generalized exponential features: it samples only the
// projections the estimator depends on, exactly in distribution.
//   i.i.d.:  (ωᵀe₁, ωᵀe₂) ~ N(0, I₂) and |ω|² = g₁² + g₂² + χ²_{d-2}: O(1) per feature.
//   χ² variates come two at a time (chiSquareVariatePair: features 2m and 2m + 1, i.i.d. or in
//   a block).
//   ORF / SimRF blocks W = D R or D S R with R Haar: the features see R only through
//   (R e₁, R e₂), a uniformly random orthonormal 2-frame (Gram–Schmidt of two Gaussian vectors),
//   and S only through S·(R eₖ), which costs O(d) thanks to S's structure; norms are χ_d
//   (orf-fixed-norm: √d, none drawn).
// Plain inline code (no allocation, no exceptions): the CUDA backend compiles the same functions.
// Per-trial scratch arrays are a template parameter: double* on the CPU, a StridedArray on the GPU
// (element i of consecutive threads in consecutive words, so that a warp's accesses coalesce).

#include <cmath>
#include <cstdint>

#include "core/couplings/block_geometry.h"
#include "core/math/signed_log.h"
#include "core/mechanisms/trial_model.h"
#include "core/random/distributions.h"
#include "core/random/trial_stream.h"

namespace rfscope {

// OrthogonalFixedNorm: the orthogonal frame with every norm √d (orf-fixed-norm).
enum class BlockGeometry { Orthogonal, Simplex, OrthogonalFixedNorm };

struct FastTrialSpec {
  ExponentialFeatureModel model;
  int dimension = 0;
  double sum1 = 0, sum2 = 0, diff1 = 0, diff2 = 0;  // PairFrame coordinates
  std::int64_t features = 1;
  std::uint64_t seed = 1;
  double logOffset = 0;  // includes -log M
};

RFSCOPE_HOST_DEVICE inline bool usesSecondAxis(const FastTrialSpec& s) {
  return (s.model.needsSum() && s.sum2 != 0) || (s.model.needsDifference() && s.diff2 != 0);
}

RFSCOPE_HOST_DEVICE inline SignedLog fastIidTrial(const FastTrialSpec& s, std::uint64_t trial) {
  TrialStream rng(s.seed, trial);
  const bool needsNorm = s.model.needsNormSquared();
  // The second frame coordinate matters only if a projection the model uses has one; otherwise
  // g₂ enters |ω|² alone and joins the χ² of the orthogonal rest.
  const int axes = (s.dimension >= 2 && usesSecondAxis(s)) ? 2 : 1;
  const double restDegrees = s.dimension - axes;
  PairedNormals<TrialStream> normals(rng);
  EnvelopeSum total;
  PairedChiSquares<TrialStream> rest(rng, restDegrees, s.features);
  for (std::int64_t j = 0; j < s.features; ++j) {
    const double g1 = normals.next();
    const double g2 = axes == 2 ? normals.next() : 0.0;
    FeatureProjection w;
    w.onSum = s.sum1 * g1 + s.sum2 * g2;
    w.onDifference = s.diff1 * g1 + s.diff2 * g2;
    if (needsNorm) w.normSquared = g1 * g1 + g2 * g2 + rest.next();
    if (s.model.randomPhase) w.phase = kTwoPi * rng.uniform();
    double envelope = 0, factor = 0;
    exponentialFeatureTerm(s.model, w, envelope, factor);
    total.add(envelope, factor);
  }
  return total.result(s.logOffset);
}

// Fills a (and b when planar) with a uniformly random orthonormal 2-frame of R^d.
template <class Array>
RFSCOPE_HOST_DEVICE inline void randomFrame(TrialStream& rng, int d, bool planar, Array a,
                                            Array b) {
  PairedNormals<TrialStream> normals(rng);
  double aa = 0;
  for (int i = 0; i < d; ++i) {
    a[i] = normals.next();
    aa += a[i] * a[i];
  }
  const double inverse = 1.0 / std::sqrt(aa);
  for (int i = 0; i < d; ++i)
    a[i] *= inverse;
  if (!planar) return;
  for (int i = 0; i < d; ++i)
    b[i] = normals.next();
  for (int pass = 0; pass < 2; ++pass) {  // Gram–Schmidt twice is enough (Kahan–Parlett)
    double ab = 0;
    for (int i = 0; i < d; ++i)
      ab += a[i] * b[i];
    for (int i = 0; i < d; ++i)
      b[i] -= ab * a[i];
  }
  double bb = 0;
  for (int i = 0; i < d; ++i)
    bb += b[i] * b[i];
  const double scale = 1.0 / std::sqrt(bb);
  for (int i = 0; i < d; ++i)
    b[i] *= scale;
}

// The features of one block: row i of the block's frame (a, and b when planar) scaled by a χ_dof
// norm (√dof where the norms are fixed), projected on the pair and added to total. Rows 2m and
// 2m + 1 draw their χ²_dof together (chiSquareVariatePair); a last odd row alone.
template <class Array>
RFSCOPE_HOST_DEVICE inline void addBlockFeatures(const FastTrialSpec& s, TrialStream& rng, int dof,
                                                 std::int64_t rows, bool planar, Array a, Array b,
                                                 EnvelopeSum& total, bool fixedNorm = false) {
  const double fixed = std::sqrt(static_cast<double>(dof));
  PairedChiSquares<TrialStream> norms(rng, dof, rows);
  for (std::int64_t i = 0; i < rows; ++i) {
    const double norm = fixedNorm ? fixed : std::sqrt(norms.next());
    const double c1 = norm * a[i];
    const double c2 = planar ? norm * b[i] : 0.0;
    FeatureProjection w;
    w.onSum = s.sum1 * c1 + s.sum2 * c2;
    w.onDifference = s.diff1 * c1 + s.diff2 * c2;
    w.normSquared = norm * norm;
    if (s.model.randomPhase) w.phase = kTwoPi * rng.uniform();
    double envelope = 0, factor = 0;
    exponentialFeatureTerm(s.model, w, envelope, factor);
    total.add(envelope, factor);
  }
}

// scratch: 2d doubles (see ScratchArray).
template <class Array>
RFSCOPE_HOST_DEVICE inline SignedLog fastBlockTrial(const FastTrialSpec& s, BlockGeometry geometry,
                                                    std::uint64_t trial, Array scratch) {
  TrialStream rng(s.seed, trial);
  const int d = s.dimension;
  const bool planar = usesSecondAxis(s);
  const Array a = scratch;
  const Array b = scratch + d;
  EnvelopeSum total;
  for (std::int64_t start = 0; start < s.features; start += d) {
    const std::int64_t rows = s.features - start < d ? s.features - start : d;
    randomFrame(rng, d, planar, a, b);
    if (geometry == BlockGeometry::Simplex) {
      applySimplexRows(a, d);
      if (planar) applySimplexRows(b, d);
    }
    addBlockFeatures(s, rng, d, rows, planar, a, b, total,
                     geometry == BlockGeometry::OrthogonalFixedNorm);
  }
  return total.result(s.logOffset);
}

// The bipolar hybrids (HRF): each feature is λ̂ K̂_pos-hyp(ω) + (1 - λ̂) K̂_trig(ω'), where ω' = ω
// when the base estimators share their frequencies, and λ̂ comes from n Gaussian τ's:
//   angular:  the fraction of τ's whose hyperplane separates x and y (τᵀx, τᵀy of opposite signs);
//             τᵀx, τᵀy need only (τᵀe₁, τᵀe₂), like ω;
//   Gaussian: 1 - (1/n) Σ cos(τᵀ(x - y)/b), where τᵀ(x - y)/b ~ N(0, |x - y|²/b²) takes one normal.
// posLogConstant = -|x|² - |y|² (the pos-hyp constant). HybridCoefficient: trial_model.h.

struct HybridSpec {
  FastTrialSpec base;
  double posLogConstant = 0;
  std::int64_t taus = 8;
  bool shared = false;
  HybridCoefficient coefficient = HybridCoefficient::Angular;
  double tauDifferenceScale = 0;  // Gaussian: |x - y| / b
};

// The sign of a cos 2πu + b sin 2πu read off the angle u (a fraction of a turn) alone: positive
// for u - start in (0, ½) mod 1. A Box–Muller pair (r cos 2πu, r sin 2πu) projected on (a, b)
// has that sign too, however it rounds, unless u lies within 2^-29 turns (kAngularMargin units of
// 2^-52) of a zero crossing: there, or where a and b nearly cancel (amplitude below 10⁻³ of the
// coefficients' size), the caller computes the projection itself. The margin dwarfs the
// projection's rounding: a few ulp of the coefficients' size, against a value of at least
// amplitude · 2π · 2^-29 there. In units of 2^-52 turns, the uniform's 52 bits (uniformFromWords:
// u = (bits + ½) 2^-52), so that the test is integer arithmetic.
inline constexpr std::uint64_t kAngularMargin = std::uint64_t{1} << 23;
inline constexpr std::uint64_t kAngularTurn = std::uint64_t{1} << 52;

struct AngularSign {
  std::uint64_t start = 0;  // in [0, 2^52)
  bool usable = false;
};

RFSCOPE_HOST_DEVICE inline AngularSign angularSign(double a, double b, double size) {
  AngularSign sign;
  const double amplitude = std::sqrt(a * a + b * b);
  if (!(amplitude > 1e-3 * size) || !(amplitude < 1e300)) return sign;  // also NaN, ±inf
  double start = std::atan2(b, a) / kTwoPi - 0.25;
  start -= std::floor(start);  // in [0, 1]
  sign.start = static_cast<std::uint64_t>(start * 0x1.0p52) & (kAngularTurn - 1);
  sign.usable = true;
  return sign;
}

// The angular hybrid's τ from two words of its stream (a whole Box–Muller pair: t1 from the
// radius and cosine, t2 from the sine): whether its hyperplane separates x and y, i.e. τᵀ(x + y)
// ± τᵀ(x - y) (2τᵀx and 2τᵀy) differ in sign. plus and minus: their angular signs. Decided from
// the angle alone where both are clear of a zero crossing (the radius is positive and scales both
// alike; its logarithm and the sine and cosine are then never computed), otherwise from the pair
// itself, as it always was.
RFSCOPE_HOST_DEVICE inline bool separatedByTau(const FastTrialSpec& s, const AngularSign& plus,
                                               const AngularSign& minus, std::uint64_t radiusWord,
                                               std::uint64_t angleWord) {
  const std::uint64_t angle = angleWord >> 12;  // uniformFromWords' 52 bits
  const std::uint64_t onX = (angle - plus.start) & (kAngularTurn - 1);
  const std::uint64_t onY = (angle - minus.start) & (kAngularTurn - 1);
  const std::uint64_t half = kAngularTurn / 2;
  const bool clear = plus.usable && minus.usable &&
                     ((onX + kAngularMargin) & (half - 1)) >= 2 * kAngularMargin &&
                     ((onY + kAngularMargin) & (half - 1)) >= 2 * kAngularMargin;
  if (clear) return ((onX ^ onY) & half) != 0;  // below half: positive
  double t1 = 0, t2 = 0;
  boxMullerPair(uniformFromWords(static_cast<std::uint32_t>(radiusWord >> 32),
                                 static_cast<std::uint32_t>(radiusWord)),
                uniformFromWords(static_cast<std::uint32_t>(angleWord >> 32),
                                 static_cast<std::uint32_t>(angleWord)),
                t1, t2);
  const double onSum = s.sum1 * t1 + s.sum2 * t2;
  const double onDifference = s.diff1 * t1 + s.diff2 * t2;
  return (onSum + onDifference > 0) != (onSum - onDifference > 0);
}

RFSCOPE_HOST_DEVICE inline SignedLog fastHybridTrial(const HybridSpec& h, std::uint64_t trial) {
  const FastTrialSpec& s = h.base;
  TrialStream rng(s.seed, trial);
  const bool planar = s.sum2 != 0 || s.diff2 != 0;
  const bool twoAxes = s.dimension >= 2 && planar;
  // With two axes every draw below is a whole pair of normals, so a τ's (t1, t2) is always one
  // Box–Muller pair: its two words come from rng directly, leaving `normals` without a spare.
  const double size =
      std::fabs(s.sum1) + std::fabs(s.sum2) + std::fabs(s.diff1) + std::fabs(s.diff2);
  const AngularSign plus = angularSign(s.sum1 + s.diff1, s.sum2 + s.diff2, size);
  const AngularSign minus = angularSign(s.sum1 - s.diff1, s.sum2 - s.diff2, size);
  PairedNormals<TrialStream> normals(rng);
  EnvelopeSum total;
  for (std::int64_t j = 0; j < s.features; ++j) {
    double lambda = 0;
    if (h.coefficient == HybridCoefficient::Gaussian) {
      for (std::int64_t k = 0; k < h.taus; ++k) {
        const double half = 0.5 * h.tauDifferenceScale * normals.next();
        lambda += 2.0 * std::sin(half) * std::sin(half);  // 1 - cos, exact for tiny angles
      }
      lambda /= static_cast<double>(h.taus);
    } else {
      std::int64_t separated = 0;
      for (std::int64_t k = 0; k < h.taus; ++k) {
        if (twoAxes) {
          const std::uint64_t radiusWord = rng.bits();
          separated += separatedByTau(s, plus, minus, radiusWord, rng.bits()) ? 1 : 0;
          continue;
        }
        const double t1 = normals.next();
        const double t2 = 0.0;
        const double onSum = s.sum1 * t1 + s.sum2 * t2;           // τᵀ(x + y)
        const double onDifference = s.diff1 * t1 + s.diff2 * t2;  // τᵀ(x - y)
        if ((onSum + onDifference > 0) != (onSum - onDifference > 0)) ++separated;
      }
      lambda = static_cast<double>(separated) / static_cast<double>(h.taus);
    }
    const double g1 = normals.next();
    const double g2 = twoAxes ? normals.next() : 0.0;
    const double onSum = s.sum1 * g1 + s.sum2 * g2;
    double onDifference = s.diff1 * g1 + s.diff2 * g2;
    if (!h.shared) {
      const double f1 = normals.next();
      const double f2 = twoAxes ? normals.next() : 0.0;
      onDifference = s.diff1 * f1 + s.diff2 * f2;
    }
    const double magnitude = onSum < 0 ? -onSum : onSum;  // e^γ cosh(ωᵀ(x+y)), γ = posLogConstant
    total.add(h.posLogConstant + magnitude, lambda * 0.5 * (1.0 + std::exp(-2.0 * magnitude)));
    total.add(0.0, (1.0 - lambda) * std::cos(onDifference));
  }
  return total.result(s.logOffset);
}

// Structured blocks (orf-fast, simrf-fast; SimRF App. B.2 after Choromanski et al. 2017): the Haar
// rotation is replaced by M = H D₃ H D₂ H D₁ / n^{3/2}, H the n×n Hadamard matrix (n = d padded to
// a power of two) and D_k random ±1 diagonals — orthogonal, applied in O(n log n), but not Haar, so
// the features see the actual frame (M e₁, M e₂) of the pair instead of a random one.

// axis1, axis2: the pair's frame vectors (length n, zero-padded); scratch: 5n doubles.
template <class Array>
RFSCOPE_HOST_DEVICE inline SignedLog fastStructuredTrial(const FastTrialSpec& s,
                                                         BlockGeometry geometry,
                                                         const double* axis1, const double* axis2,
                                                         std::uint64_t trial, Array scratch) {
  TrialStream rng(s.seed, trial);
  const int n = s.dimension;
  const bool planar = usesSecondAxis(s);
  const Array a = scratch;
  const Array b = scratch + n;
  const Array signs = scratch + 2 * n;
  EnvelopeSum total;
  for (std::int64_t start = 0; start < s.features; start += n) {
    const std::int64_t rows = s.features - start < n ? s.features - start : n;
    randomSigns(rng, 3 * n, signs);
    for (int i = 0; i < n; ++i) {
      a[i] = axis1[i];
      b[i] = axis2[i];
    }
    structuredRotation(a, n, signs);
    if (planar) structuredRotation(b, n, signs);
    if (geometry == BlockGeometry::Simplex) {
      applySimplexRows(a, n);
      if (planar) applySimplexRows(b, n);
    }
    addBlockFeatures(s, rng, n, rows, planar, a, b, total);
  }
  return total.result(s.logOffset);
}

}  // namespace rfscope
