// The fast path's trials a SIMD vector at a time (see simd_fast_trials.h). Highway compiles this
// file once per instruction set (foreach_target.h) and dispatches at run time.
//
// Lanes are trials. Every lane follows its trial's scalar code exactly: the same Philox words in
// the same order, the same operations in the same order (no fused multiply-add: the build turns
// contraction off), reproducibleExp, reproducibleLog and reproducibleSinCosOfTurns for e^x and
// Box–Muller. kGroups vectors of trials run side by side.
// Words: each lane's stream is read through a buffer of kBufferWords 64-bit words per lane,
// lane-major so that one aligned load gives every lane its next word. A lane whose stream
// position is odd keeps the second word of its last block aside (the spare) for the next fill.
// Normals take two words each pair and never reject, so every lane reads the same position.
// Rejection: Marsaglia–Tsang's χ² draws a data-dependent number of words. A lane whose try needs
// the logarithm test (0.2% of tries at χ²₆₄) gets it vectorised (Highway's Log) where the outcome
// is certain by a wide margin, else from gammaTryAccepted itself; a rejected try goes on as
// chiSquareVariate — a new call behaves exactly like the next try (chiSquare alone: a try with
// v <= 0 gives its uniform back; chiSquarePair draws both uniforms first).
// Scalar code runs on a lane through LaneStream (the lane's words in the buffer, then its spare
// and further Philox blocks); the lane's column is then rewritten with the words that follow, so
// that all lanes read the same position again.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/montecarlo/simd_fast_trials.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <hwy/contrib/math/math-inl.h>  // after highway.h

#include "core/math/reproducible_simd-inl.h"  // after highway.h

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_log.h"
#include "core/math/reproducible_sincos.h"
#include "core/montecarlo/fast_trial.h"
#include "core/montecarlo/simd_fast_trials.h"
#include "core/montecarlo/simd_target.h"
#include "core/random/philox_stream.h"
#include "core/random/trial_stream.h"

#ifndef RFSCOPE_SIMD_LANE_STREAM
#define RFSCOPE_SIMD_LANE_STREAM
namespace rfscope::simd_detail {

// Words per lane in the buffer of a vector of trials (even: whole Philox blocks).
inline constexpr int kBufferWords = 8;

// One lane's stream for the scalar code: its words in the buffer from position `index`, then its
// spare word (if any) and its next Philox blocks — the very sequence PhiloxStream(seed, trial)
// yields from that point.
struct LaneStream {
  std::uint64_t* column = nullptr;  // the lane's first word in the buffer
  std::size_t stride = 1;           // lanes
  int index = 0;
  std::uint64_t seed = 0, stream = 0;
  std::uint64_t* next = nullptr;      // the lane's next Philox block
  std::uint64_t* spare = nullptr;     // its spare word,
  std::uint64_t* hasSpare = nullptr;  // when this is non-zero

  RFSCOPE_FORCE_INLINE std::uint64_t bits() {
    if (index < kBufferWords) return column[static_cast<std::size_t>(index++) * stride];
    if (*hasSpare != 0) {
      *hasSpare = 0;
      return *spare;
    }
    const philox4x32_ctr_t block = philoxBlock(seed, stream, (*next)++);
    *spare = (static_cast<std::uint64_t>(block.v[2]) << 32) | block.v[3];
    *hasSpare = ~std::uint64_t{0};
    return (static_cast<std::uint64_t>(block.v[0]) << 32) | block.v[1];
  }
  double uniform() {
    const std::uint64_t word = bits();
    return uniformFromWords(static_cast<std::uint32_t>(word >> 32),
                            static_cast<std::uint32_t>(word));
  }
  double normal() { return drawNormal(*this); }  // TrialStream::normal

  // Rewrites the lane's column from `position` on with its next words, so that the vector code
  // reading from `position` continues the lane's stream.
  void realign(int position) {
    const int taken = index - position;         // words taken beyond the vector code's
    if (taken >= 0 && index <= kBufferWords) {  // the usual case: shift, then top up
      for (int i = position; i + taken < kBufferWords; ++i)
        column[static_cast<std::size_t>(i) * stride] =
            column[static_cast<std::size_t>(i + taken) * stride];
      index = kBufferWords;
      for (int i = kBufferWords - taken; i < kBufferWords; ++i)
        column[static_cast<std::size_t>(i) * stride] = bits();
      return;
    }
    std::uint64_t following[kBufferWords];
    const int count = kBufferWords - position;
    for (int i = 0; i < count; ++i)
      following[i] = bits();
    for (int i = 0; i < count; ++i)
      column[static_cast<std::size_t>(position + i) * stride] = following[i];
  }
};

// The 10 round keys of Philox 4x32-10 under a seed (Random123's key schedule).
struct PhiloxKeys {
  std::uint64_t k0[10], k1[10];  // 32-bit keys, stored wide: vector code broadcasts them directly
  explicit PhiloxKeys(std::uint64_t seed) {
    std::uint32_t a = static_cast<std::uint32_t>(seed), b = static_cast<std::uint32_t>(seed >> 32);
    for (int r = 0; r < 10; ++r, a += 0x9E3779B9u, b += 0xBB67AE85u) {
      k0[r] = a;
      k1[r] = b;
    }
  }
};

// Shape constants of the χ² variates, computed as gammaVariate computes them.
struct ChiSquareConstants {
  double degrees = 0, d = 0, c = 0, squeeze = 0, twiceD = 0;
  explicit ChiSquareConstants(double dof) : degrees(dof) {
    const double shape = 0.5 * dof;
    d = shape - 1.0 / 3.0;
    c = 1.0 / std::sqrt(9.0 * d);
    squeeze = gammaSqueezeCoefficient(d);
    twiceD = 2.0 * d;
  }
};

// What the ceiling kernel draws per trial: the trial's own random numbers (normals and the χ²
// variates' first uniforms, assuming every first try accepted) and one e^x per feature.
struct CeilingDraws {
  std::int64_t features = 0;
  std::int64_t blockRows = 0;          // features per block (0: no blocks)
  std::int64_t normalsPerBlock = 0;    // the block's frame
  std::int64_t normalsPerFeature = 0;  // the last one goes into e^x
  std::int64_t uniformsPerFeature = 0;

  explicit CeilingDraws(const FastTrialPlan& plan) {
    const FastTrialSpec& s = plan.spec();
    features = s.features;
    const int axes = (s.dimension >= 2 && usesSecondAxis(s)) ? 2 : 1;
    if (plan.kind == FastTrialKind::Block) {
      blockRows = s.dimension;
      normalsPerBlock = (usesSecondAxis(s) ? 2 : 1) * static_cast<std::int64_t>(s.dimension);
      normalsPerFeature = 1;  // χ_d norm
      uniformsPerFeature = 1;
    } else if (plan.kind == FastTrialKind::Iid) {
      const bool chi = s.model.needsNormSquared() && s.dimension - axes > 0;
      normalsPerFeature = axes + (chi ? 1 : 0);
      uniformsPerFeature = chi ? 1 : 0;
    } else {  // the other kinds: as many normals as fastTrialRandomDraws
      normalsPerFeature = std::max<std::int64_t>(1, fastTrialRandomDraws(plan) / s.features);
    }
  }
};

}  // namespace rfscope::simd_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace rfscope {
namespace HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
// Highway's one-lane fallback (where no SIMD target it knows is present): the scalar trials.

void RunTrials(const FastTrialPlan& plan, std::uint64_t first, int count, SignedLog* values,
               std::vector<double>& scratch) {
  scratch.resize(std::max(scratch.size(), static_cast<std::size_t>(fastTrialScratchSize(plan))));
  for (int i = 0; i < count; ++i)
    values[i] =
        runFastTrial(plan, nullptr, nullptr, first + static_cast<std::uint64_t>(i), scratch.data());
}

double CeilingKernel(const FastTrialPlan& plan, std::uint64_t first, std::int64_t trials,
                     CeilingNormals normals) {
  const simd_detail::CeilingDraws c(plan);
  const FastTrialSpec& s = plan.spec();
  double sum = 0;
  for (std::int64_t t = 0; t < trials; ++t) {
    TrialStream rng(s.seed, first + static_cast<std::uint64_t>(t));
    PairedNormals<TrialStream> pairs(rng);
    const auto normal = [&] {
      return normals == CeilingNormals::None ? rng.uniform() : pairs.next();
    };
    for (std::int64_t f = 0; f < c.features; ++f) {
      if (c.blockRows > 0 && f % c.blockRows == 0)
        for (std::int64_t k = 0; k < c.normalsPerBlock; ++k)
          sum += normal();
      double g = 0;
      for (std::int64_t k = 0; k < c.normalsPerFeature; ++k)
        g = normal();
      for (std::int64_t k = 0; k < c.uniformsPerFeature; ++k)
        sum += rng.uniform();
      sum += reproducibleExp(s.sum1 * g);
    }
  }
  return sum;
}

#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using simd_detail::ChiSquareConstants;
using simd_detail::kBufferWords;
using simd_detail::LaneStream;
using simd_detail::PhiloxKeys;

using DF = hn::ScalableTag<double>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using D32 = hn::Repartition<std::uint32_t, DU>;
using VF = hn::Vec<DF>;
using VU = hn::Vec<DU>;
using VI = hn::Vec<DI>;
using MF = hn::Mask<DF>;
using MU = hn::Mask<DU>;

constexpr std::size_t kMaxLanes = HWY_LANES(double);

// reproducibleExp, the same operations on every lane (reproducible_simd-inl.h).
HWY_INLINE VF Exp(VF x) {
  return reproducible_simd::Exp(DF(), x);
}

// reproducibleLog, the same operations on every lane (x positive and normal).
HWY_INLINE VF Log(VF x) {
  namespace l = reproducible_log;
  namespace e = reproducible_exp;
  const DF df;
  const DI di;
  const VI shifted = hn::Add(hn::BitCast(di, x), hn::Set(di, l::kOffset));
  const VF k = hn::ConvertTo(df, hn::Sub(hn::ShiftRight<52>(shifted), hn::Set(di, 1023)));
  const VF m = hn::BitCast(
      df, hn::Add(hn::And(shifted, hn::Set(di, l::kMantissaMask)), hn::Set(di, l::kLowBits)));
  const VF f = hn::Sub(m, hn::Set(df, 1.0));
  const VF halfSquare = hn::Mul(hn::Mul(hn::Set(df, 0.5), f), f);
  const VF s = hn::Div(f, hn::Add(hn::Set(df, 2.0), f));
  const VF z = hn::Mul(s, s), w = hn::Mul(z, z);
  const auto step = [&](double c, VF inner) { return hn::Add(hn::Set(df, c), hn::Mul(w, inner)); };
  const VF t1 = hn::Mul(w, step(l::kLg2, step(l::kLg4, hn::Set(df, l::kLg6))));
  const VF t2 = hn::Mul(z, step(l::kLg1, step(l::kLg3, step(l::kLg5, hn::Set(df, l::kLg7)))));
  const VF r = hn::Add(t2, t1);
  const VF sum = hn::Add(
      hn::Sub(hn::Add(hn::Mul(s, hn::Add(halfSquare, r)), hn::Mul(k, hn::Set(df, e::kLn2Lo))),
              halfSquare),
      f);
  return hn::Add(sum, hn::Mul(k, hn::Set(df, e::kLn2Hi)));
}

// reproducibleSinCosOfTurns, the same operations on every lane: the exact reduction of a fraction
// of a turn, then the shared kernels (reproducible_simd-inl.h).
HWY_INLINE void SinCosOfTurns(VF u, VF& sine, VF& cosine) {
  namespace t = reproducible_sincos;
  namespace e = reproducible_exp;
  const DF df;
  const DI di;
  const VF turns = hn::Mul(hn::Set(df, 4.0), u);
  const VF magic = hn::Set(df, e::kRoundMagic);
  const VF shifted = hn::Add(turns, magic);
  const VF x = hn::Mul(hn::Sub(turns, hn::Sub(shifted, magic)), hn::Set(df, t::kHalfPi));
  VF s, c;
  reproducible_simd::SinCosOfReduced(df, x, s, c);
  const VI quadrant = hn::Sub(hn::BitCast(di, shifted), hn::Set(di, e::bitsOf(e::kRoundMagic)));
  reproducible_simd::Rotate(df, quadrant, s, c, sine, cosine);
}

// Philox 4x32-10 blocks `block` of streams `stream`, lane by lane, as two 64-bit words each
// (PhiloxStream::bits order). The 32-bit counter words live in 64-bit lanes; only their low
// halves matter (MulEven reads those), so the high halves are never cleared until the end.
HWY_INLINE void philoxBlocks(VU block, VU stream, const PhiloxKeys& keys, VU& first, VU& second) {
  const DU du;
  const D32 d32;
  VU c0 = block, c1 = hn::ShiftRight<32>(block), c2 = stream, c3 = hn::ShiftRight<32>(stream);
  const auto m0 = hn::BitCast(d32, hn::Set(du, 0xD2511F53u));
  const auto m1 = hn::BitCast(d32, hn::Set(du, 0xCD9E8D57u));
#pragma GCC unroll 10
  for (int r = 0; r < 10; ++r) {
    const VU p0 = hn::MulEven(m0, hn::BitCast(d32, c0));  // hi0:lo0
    const VU p1 = hn::MulEven(m1, hn::BitCast(d32, c2));  // hi1:lo1
    c0 = hn::Xor(hn::Xor(hn::ShiftRight<32>(p1), c1), hn::Set(du, keys.k0[r]));
    c1 = p1;
    c2 = hn::Xor(hn::Xor(hn::ShiftRight<32>(p0), c3), hn::Set(du, keys.k1[r]));
    c3 = p0;
  }
  const VU low = hn::Set(du, 0xFFFFFFFFu);
  first = hn::Or(hn::ShiftLeft<32>(c0), hn::And(c1, low));
  second = hn::Or(hn::ShiftLeft<32>(c2), hn::And(c3, low));
}

// The streams of Lanes(DF) consecutive trials, with the draws of TrialStream.
class VectorStream {
 public:
  VectorStream(std::uint64_t seed, std::uint64_t firstTrial) : seed_(seed), keys_(seed) {
    const DU du;
    hn::Store(hn::Iota(du, firstTrial), du, stream_);
    hn::Store(hn::Zero(du), du, next_);
    hn::Store(hn::Zero(du), du, spare_);
    hn::Store(hn::Zero(du), du, hasSpare_);
  }

  HWY_INLINE VU bits() {
    const DU du;
    if (HWY_UNLIKELY(position_ == kBufferWords)) fill();
    return hn::Load(du, buffer_ + static_cast<std::size_t>(position_++) * hn::Lanes(du));
  }

  // uniformFromWords: 52 bits, never 0 or 1.
  HWY_INLINE VF uniform() {
    const DF df;
    const DI di;
    const VF bits52 = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<12>(bits())));
    return hn::Mul(hn::Add(bits52, hn::Set(df, 0.5)), hn::Set(df, 0x1.0p-52));
  }

  // TrialStream::normalPair: Box–Muller on the next two uniforms.
  HWY_INLINE void normalPair(VF& first, VF& second) {
    const DF df;
    const VF radiusUniform = uniform();
    const VF angleUniform = uniform();
    const VF radius = hn::Sqrt(hn::Mul(hn::Set(df, -2.0), Log(radiusUniform)));
    VF sine, cosine;
    SinCosOfTurns(angleUniform, sine, cosine);
    first = hn::Mul(radius, cosine);
    second = hn::Mul(radius, sine);
  }

  // TrialStream::normal.
  HWY_INLINE VF normal() {
    VF first, second;
    normalPair(first, second);
    return first;
  }

  // chiSquareVariate for degrees >= 2 (shape >= 1: no boost).
  HWY_INLINE VF chiSquare(const ChiSquareConstants& k) {
    const DF df;
    const VF x = normal();
    const VF one = hn::Set(df, 1.0);
    VF v = hn::Add(one, hn::Mul(hn::Set(df, k.c), x));
    const MF retry = hn::Le(v, hn::Zero(df));
    v = hn::Mul(hn::Mul(v, v), v);
    const VF u = uniform();
    const VF result = hn::Mul(hn::Set(df, k.twiceD), v);  // 2 (d v): doubling is exact
    const MF accepted = squeezeAccepts(k, x, v, u);
    if (HWY_UNLIKELY(!hn::AllTrue(df, accepted)))
      return chiSquareBeyondSqueeze(k, accepted, retry, x, v, u, result);
    return result;
  }

  // chiSquareVariatePair for degrees >= 2: the first tries of both from one Box–Muller pair.
  HWY_INLINE void chiSquarePair(const ChiSquareConstants& k, VF& first, VF& second) {
    const DF df;
    PairTries t;
    normalPair(t.x[0], t.x[1]);
    t.u[0] = uniform();
    t.u[1] = uniform();
    const VF one = hn::Set(df, 1.0);
    for (int j = 0; j < 2; ++j) {
      const VF v = hn::Add(one, hn::Mul(hn::Set(df, k.c), t.x[j]));
      t.v[j] = hn::Mul(hn::Mul(v, v), v);
      t.result[j] = hn::Mul(hn::Set(df, k.twiceD), t.v[j]);  // 2 (d v): doubling is exact
      t.accepted[j] = squeezeAccepts(k, t.x[j], t.v[j], t.u[j]);
    }
    if (HWY_UNLIKELY(!hn::AllTrue(df, hn::And(t.accepted[0], t.accepted[1]))))
      chiSquarePairBeyondSqueeze(k, t);
    first = t.result[0];
    second = t.result[1];
  }

 private:
  // Fills the whole buffer with the lanes' next words.
  HWY_NOINLINE void fill() {
    const DU du;
    const std::size_t n = hn::Lanes(du);
    const VU stream = hn::Load(du, stream_);
    VU next = hn::Load(du, next_);
    VU carry = hn::Load(du, spare_);
    const MU odd = hn::Ne(hn::Load(du, hasSpare_), hn::Zero(du));
    for (int i = 0; i < kBufferWords; i += 2) {
      VU first, second;
      philoxBlocks(next, stream, keys_, first, second);
      next = hn::Add(next, hn::Set(du, 1));
      hn::Store(hn::IfThenElse(odd, carry, first), du, buffer_ + i * n);
      hn::Store(hn::IfThenElse(odd, first, second), du, buffer_ + (i + 1) * n);
      carry = hn::IfThenElse(odd, second, carry);
    }
    hn::Store(next, du, next_);
    hn::Store(carry, du, spare_);
    position_ = 0;
  }

  // Runs f(lane, stream) for each lane of `lanes`, its LaneStream starting `back[lane]` words
  // before the current position; then realigns the lane's column.
  template <class F>
  HWY_NOINLINE void forLanes(MF lanes, MF back, F&& f) {
    const DU du;
    const std::size_t n = hn::Lanes(du);
    HWY_ALIGN std::uint64_t selected[kMaxLanes], stepBack[kMaxLanes];
    hn::Store(hn::VecFromMask(du, hn::RebindMask(du, lanes)), du, selected);
    hn::Store(hn::VecFromMask(du, hn::RebindMask(du, back)), du, stepBack);
    for (std::size_t lane = 0; lane < n; ++lane) {
      if (selected[lane] == 0) continue;
      LaneStream stream;
      stream.column = buffer_ + lane;
      stream.stride = n;
      stream.index = position_ - (stepBack[lane] != 0 ? 1 : 0);
      stream.seed = seed_;
      stream.stream = stream_[lane];
      stream.next = next_ + lane;
      stream.spare = spare_ + lane;
      stream.hasSpare = hasSpare_ + lane;
      f(lane, stream);
      stream.realign(position_);
    }
  }

  // gammaTryAccepted's squeeze (false where v <= 0 too).
  HWY_INLINE MF squeezeAccepts(const ChiSquareConstants& k, VF x, VF v, VF u) {
    const DF df;
    const VF x2 = hn::Mul(x, x);
    const VF bound = hn::Sub(hn::Set(df, 1.0), hn::Mul(hn::Mul(hn::Set(df, k.squeeze), x2), x2));
    return hn::And(hn::Ge(v, hn::Set(df, 0.125)), hn::Lt(u, bound));
  }

  // The lanes of `tested` whose try the logarithm test (gammaTryAccepted) accepts by a margin far
  // beyond what Highway's and the C library's logarithms can differ by: then both decide alike.
  HWY_INLINE MF surelyAcceptedByLogarithm(const ChiSquareConstants& k, MF tested, VF x, VF v,
                                          VF u) {
    const DF df;
    const VF x2 = hn::Mul(x, x);
    const VF safeV = hn::IfThenElse(tested, v, hn::Set(df, 1.0));
    const VF left = hn::Log(df, u);
    const VF right = hn::Add(
        hn::Mul(hn::Set(df, 0.5), x2),
        hn::Mul(hn::Set(df, k.d), hn::Add(hn::Sub(hn::Set(df, 1.0), safeV), hn::Log(df, safeV))));
    const VF margin = hn::Mul(hn::Set(df, 1e-9), hn::Add(hn::Set(df, 1.0), hn::Abs(right)));
    return hn::And(tested, hn::Lt(hn::Add(left, margin), right));
  }

  // The first tries of a chiSquarePair.
  struct PairTries {
    VF x[2], v[2], u[2], result[2];
    MF accepted[2], retry[2];
  };

  // The lanes of a chiSquarePair whose tries the squeeze did not both accept: the logarithm
  // test, then chiSquareVariatePair's own code for the lanes it leaves (no word is given back:
  // both uniforms were drawn).
  HWY_NOINLINE void chiSquarePairBeyondSqueeze(const ChiSquareConstants& k, PairTries& t) {
    const DF df;
    const DU du;
    MF scalar[2];
    for (int j = 0; j < 2; ++j) {
      t.retry[j] =
          hn::Le(hn::Add(hn::Set(df, 1.0), hn::Mul(hn::Set(df, k.c), t.x[j])), hn::Zero(df));
      const MF tested = hn::Not(hn::Or(t.accepted[j], t.retry[j]));
      scalar[j] = hn::Not(
          hn::Or(t.accepted[j], surelyAcceptedByLogarithm(k, tested, t.x[j], t.v[j], t.u[j])));
    }
    const MF anyScalar = hn::Or(scalar[0], scalar[1]);
    if (hn::AllFalse(df, anyScalar)) return;
    HWY_ALIGN double xs[2][kMaxLanes], vs[2][kMaxLanes], us[2][kMaxLanes], values[2][kMaxLanes];
    HWY_ALIGN std::uint64_t retries[2][kMaxLanes], scalars[2][kMaxLanes];
    for (int j = 0; j < 2; ++j) {
      hn::Store(t.x[j], df, xs[j]);
      hn::Store(t.v[j], df, vs[j]);
      hn::Store(t.u[j], df, us[j]);
      hn::Store(t.result[j], df, values[j]);
      hn::Store(hn::VecFromMask(du, hn::RebindMask(du, t.retry[j])), du, retries[j]);
      hn::Store(hn::VecFromMask(du, hn::RebindMask(du, scalar[j])), du, scalars[j]);
    }
    forLanes(anyScalar, hn::FirstN(df, 0), [&](std::size_t lane, LaneStream& stream) {
      for (int j = 0; j < 2; ++j) {
        if (scalars[j][lane] == 0) continue;
        if (retries[j][lane] == 0 &&
            gammaTryAccepted(xs[j][lane], vs[j][lane], us[j][lane], k.d, k.squeeze))
          continue;
        values[j][lane] = chiSquareVariate(stream, k.degrees);
      }
    });
    t.result[0] = hn::Load(df, values[0]);
    t.result[1] = hn::Load(df, values[1]);
  }

  // The lanes whose try the squeeze did not accept (see the top of the file).
  HWY_NOINLINE VF chiSquareBeyondSqueeze(const ChiSquareConstants& k, MF accepted, MF retry, VF x,
                                         VF v, VF u, VF result) {
    const DF df;
    const MF tested = hn::Not(hn::Or(accepted, retry));
    const MF scalar = hn::Not(hn::Or(accepted, surelyAcceptedByLogarithm(k, tested, x, v, u)));
    if (hn::AllFalse(df, scalar)) return result;
    HWY_ALIGN double xs[kMaxLanes], vs[kMaxLanes], us[kMaxLanes], values[kMaxLanes];
    HWY_ALIGN std::uint64_t retries[kMaxLanes];
    const DU du;
    hn::Store(x, df, xs);
    hn::Store(v, df, vs);
    hn::Store(u, df, us);
    hn::Store(result, df, values);
    hn::Store(hn::VecFromMask(du, hn::RebindMask(du, retry)), du, retries);
    // v <= 0: the try ended before its uniform, which the lane gets back.
    forLanes(scalar, retry, [&](std::size_t lane, LaneStream& stream) {
      if (retries[lane] == 0 && gammaTryAccepted(xs[lane], vs[lane], us[lane], k.d, k.squeeze))
        return;
      values[lane] = chiSquareVariate(stream, k.degrees);
    });
    return hn::Load(df, values);
  }

  std::uint64_t seed_;
  PhiloxKeys keys_;
  int position_ = kBufferWords;  // the next word of every lane (kBufferWords: fill first)
  HWY_ALIGN std::uint64_t buffer_[kBufferWords * kMaxLanes];  // word i of lane l: [i n + l]
  HWY_ALIGN std::uint64_t stream_[kMaxLanes];                 // the lane's trial
  HWY_ALIGN std::uint64_t next_[kMaxLanes];      // its next Philox block after the buffer
  HWY_ALIGN std::uint64_t spare_[kMaxLanes];     // its spare word,
  HWY_ALIGN std::uint64_t hasSpare_[kMaxLanes];  // when this is non-zero
};

// PairedNormals on vectors (generic code cannot inline this file's target-specific functions).
class VectorPairedNormals {
 public:
  explicit VectorPairedNormals(VectorStream& stream) : stream_(&stream) {}

  HWY_INLINE VF next() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    VF first;
    stream_->normalPair(first, spare_);
    hasSpare_ = true;
    return first;
  }

 private:
  VectorStream* stream_;
  VF spare_ = hn::Zero(DF());
  bool hasSpare_ = false;
};

// exponentialFeatureTerm for models with real coefficients only (factor 1, or ½(1 + e^{-2|l|})
// for the antithetic pair), then EnvelopeSum::add. Terms that are exactly ±0 for the plan (a zero
// coefficient, or the second frame coordinate where a feature has none) are left out, and a
// factor of 1 is not multiplied: that changes no value, at most the sign of a zero envelope,
// which neither e^x nor a comparison can tell apart.
class VectorFeatureSum {
 public:
  VF maxEnvelope, scaled;

  // secondAxis: whether features have a second frame coordinate c2.
  VectorFeatureSum(const FastTrialSpec& s, bool secondAxis)
      : quadratic_(s.model.alphaRe != 0),
        onSum_(s.model.sumRe != 0),
        onDifference_(s.model.diffRe != 0),
        sum2_(secondAxis && s.sum2 != 0),
        diff2_(secondAxis && s.diff2 != 0),
        unitSum_(s.model.sumRe == 1),
        antithetic_(s.model.antithetic) {
    const DF df;
    maxEnvelope = hn::Set(df, -std::numeric_limits<double>::infinity());
    scaled = hn::Zero(df);
    alpha_ = hn::Set(df, s.model.alphaRe);
    sumRe_ = hn::Set(df, s.model.sumRe);
    diffRe_ = hn::Set(df, s.model.diffRe);
    sum1_ = hn::Set(df, s.sum1);
    sum2v_ = hn::Set(df, s.sum2);
    diff1_ = hn::Set(df, s.diff1);
    diff2v_ = hn::Set(df, s.diff2);
  }

  // The feature with frame coordinates (c1, c2) and |ω|².
  HWY_INLINE void addFeature(VF c1, VF c2, VF normSquared) {
    const DF df;
    // linearRe = β_p ωᵀ(x+y) + β_q ωᵀ(x-y), ωᵀ(x+y) = sum1 c1 + sum2 c2, ωᵀ(x-y) likewise.
    VF linear = hn::Zero(df);
    if (onSum_) {
      VF onSum = hn::Mul(sum1_, c1);
      if (sum2_) onSum = hn::Add(onSum, hn::Mul(sum2v_, c2));
      linear = unitSum_ ? onSum : hn::Mul(sumRe_, onSum);
    }
    if (onDifference_) {
      VF onDifference = hn::Mul(diff1_, c1);
      if (diff2_) onDifference = hn::Add(onDifference, hn::Mul(diff2v_, c2));
      const VF term = hn::Mul(diffRe_, onDifference);
      linear = onSum_ ? hn::Add(linear, term) : term;
    }
    if (!antithetic_) {
      addUnit(quadratic_ ? hn::Add(hn::Mul(alpha_, normSquared), linear) : linear);
      return;
    }
    const VF magnitude = hn::Abs(linear);
    const VF small = Exp(hn::Mul(hn::Set(df, -2.0), magnitude));
    add(quadratic_ ? hn::Add(hn::Mul(alpha_, normSquared), magnitude) : magnitude,
        hn::Mul(hn::Set(df, 0.5), hn::Add(hn::Set(df, 1.0), small)));
  }

 private:
  HWY_INLINE void add(VF envelope, VF factor) {
    const DF df;
    const MF skip = hn::Or(hn::Eq(factor, hn::Zero(df)),
                           hn::Eq(envelope, hn::Set(df, -std::numeric_limits<double>::infinity())));
    const MF larger = hn::Gt(envelope, maxEnvelope);
    const VF e =
        Exp(hn::IfThenElse(larger, hn::Sub(maxEnvelope, envelope), hn::Sub(envelope, maxEnvelope)));
    const VF grown = hn::IfThenElse(larger, hn::Add(hn::Mul(scaled, e), factor),
                                    hn::Add(scaled, hn::Mul(factor, e)));
    scaled = hn::IfThenElse(skip, scaled, grown);
    maxEnvelope = hn::IfThenElse(hn::AndNot(skip, larger), envelope, maxEnvelope);
  }

  // add(envelope, 1). e^{-|e - max|} is the same number on both branches (x - y and y - x round
  // alike), and the new maximum is max(max, e).
  HWY_INLINE void addUnit(VF envelope) {
    const DF df;
    const MF larger = hn::Gt(envelope, maxEnvelope);
    const VF e = Exp(hn::Neg(hn::Abs(hn::Sub(envelope, maxEnvelope))));
    const VF grown =
        hn::IfThenElse(larger, hn::Add(hn::Mul(scaled, e), hn::Set(df, 1.0)), hn::Add(scaled, e));
    const MF skip = hn::Eq(envelope, hn::Set(df, -std::numeric_limits<double>::infinity()));
    scaled = hn::IfThenElse(skip, scaled, grown);
    maxEnvelope = hn::Max(maxEnvelope, envelope);
  }

  bool quadratic_, onSum_, onDifference_, sum2_, diff2_, unitSum_, antithetic_;
  VF alpha_, sumRe_, diffRe_, sum1_, sum2v_, diff1_, diff2v_;
};

// The kernels run kGroups vectors of trials side by side: their dependency chains (Philox rounds
// excepted, e^x and the sums) interleave, which keeps the core busy while one waits.
constexpr int kGroups = 4;

// The streams of the groups' trials first, first + Lanes, … and their feature sums.
template <std::size_t... G>
std::array<VectorStream, sizeof...(G)> groupStreams(std::uint64_t seed, std::uint64_t first,
                                                    std::index_sequence<G...>) {
  const std::uint64_t n = hn::Lanes(DF());
  return {VectorStream(seed, first + G * n)...};
}
template <std::size_t... G>
std::array<VectorPairedNormals, sizeof...(G)> pairedNormals(VectorStream* rng,
                                                            std::index_sequence<G...>) {
  return {VectorPairedNormals(rng[G])...};
}
template <std::size_t... G>
std::array<VectorFeatureSum, sizeof...(G)> groupSums(const FastTrialSpec& s, bool secondAxis,
                                                     std::index_sequence<G...>) {
  return {(static_cast<void>(G), VectorFeatureSum(s, secondAxis))...};
}

// fastIidTrial. kNeedsNorm: the model's needsNormSquared() (no χ² state in the loop without).
// It and blockTrials stay out of RunTrials: inlined there together, the i.i.d. loop ran 6% slower
// on AVX-512 than with the smaller block code it had before.
template <bool kNeedsNorm>
HWY_NOINLINE void iidTrialsOf(const FastTrialSpec& s, VectorStream* rng, VectorFeatureSum* total) {
  const DF df;
  constexpr bool needsNorm = kNeedsNorm;
  const int axes = (s.dimension >= 2 && usesSecondAxis(s)) ? 2 : 1;
  const double restDegrees = s.dimension - axes;
  const ChiSquareConstants rest(restDegrees > 0 ? restDegrees : 2.0);
  const VF zero = hn::Zero(df);
  auto normals = pairedNormals(rng, std::make_index_sequence<kGroups>());
  VF nextChi[kGroups];  // features 2m and 2m + 1 draw their χ² together
  for (std::int64_t j = 0; j < s.features; ++j) {
    VF g1[kGroups], g2[kGroups], normSquared[kGroups];
    for (int g = 0; g < kGroups; ++g) {
      g1[g] = normals[g].next();
      g2[g] = axes == 2 ? normals[g].next() : zero;
      normSquared[g] = zero;
      if constexpr (needsNorm) {
        VF chi = zero;
        if (restDegrees > 0) {
          if (j % 2 == 1)
            chi = nextChi[g];
          else if (j + 1 < s.features)
            rng[g].chiSquarePair(rest, chi, nextChi[g]);
          else
            chi = rng[g].chiSquare(rest);
        }
        normSquared[g] = hn::Add(hn::Add(hn::Mul(g1[g], g1[g]), hn::Mul(g2[g], g2[g])), chi);
      }
    }
    for (int g = 0; g < kGroups; ++g)
      total[g].addFeature(g1[g], g2[g], normSquared[g]);
  }
}

void iidTrials(const FastTrialSpec& s, VectorStream* rng, VectorFeatureSum* total) {
  if (s.model.needsNormSquared())
    iidTrialsOf<true>(s, rng, total);
  else
    iidTrialsOf<false>(s, rng, total);
}

// The running sum of the first d - 1 entries of a vector, in order (applySimplexRows' head).
HWY_INLINE void addToHead(VF* head, int i, int d, VF value) {
  if (head && i + 1 < d) *head = hn::Add(*head, value);
}

// randomFrame for each group: a[g] (and b[g] when planar), d vectors each. headA, headB (null
// unless the frame goes through applySimplexRows): each group's head of a and of b.
void randomFrames(VectorStream* rng, int d, bool planar, double* const* a, double* const* b,
                  VF* headA, VF* headB) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
  auto normals = pairedNormals(rng, std::make_index_sequence<kGroups>());
  VF aa[kGroups];
  for (int g = 0; g < kGroups; ++g)
    aa[g] = hn::Zero(df);
  for (int i = 0; i < d; ++i)
    for (int g = 0; g < kGroups; ++g) {
      const VF v = normals[g].next();
      hn::StoreU(v, df, a[g] + i * n);
      aa[g] = hn::Add(aa[g], hn::Mul(v, v));
    }
  for (int g = 0; g < kGroups; ++g) {
    const VF inverse = hn::Div(hn::Set(df, 1.0), hn::Sqrt(aa[g]));
    VF* const head = headA ? headA + g : nullptr;
    if (head) *head = hn::Zero(df);
    for (int i = 0; i < d; ++i) {
      const VF v = hn::Mul(hn::LoadU(df, a[g] + i * n), inverse);
      hn::StoreU(v, df, a[g] + i * n);
      addToHead(head, i, d, v);
    }
  }
  if (!planar) return;
  for (int g = 0; g < kGroups; ++g) {
    double* const bg = b[g];
    const double* const ag = a[g];
    for (int i = 0; i < d; ++i)
      hn::StoreU(normals[g].next(), df, bg + i * n);
    for (int pass = 0; pass < 2; ++pass) {
      VF ab = hn::Zero(df);
      for (int i = 0; i < d; ++i)
        ab = hn::Add(ab, hn::Mul(hn::LoadU(df, ag + i * n), hn::LoadU(df, bg + i * n)));
      for (int i = 0; i < d; ++i)
        hn::StoreU(hn::Sub(hn::LoadU(df, bg + i * n), hn::Mul(ab, hn::LoadU(df, ag + i * n))), df,
                   bg + i * n);
    }
    VF bb = hn::Zero(df);
    for (int i = 0; i < d; ++i) {
      const VF v = hn::LoadU(df, bg + i * n);
      bb = hn::Add(bb, hn::Mul(v, v));
    }
    const VF scale = hn::Div(hn::Set(df, 1.0), hn::Sqrt(bb));
    VF* const head = headB ? headB + g : nullptr;
    if (head) *head = hn::Zero(df);
    for (int i = 0; i < d; ++i) {
      const VF v = hn::Mul(hn::LoadU(df, bg + i * n), scale);
      hn::StoreU(v, df, bg + i * n);
      addToHead(head, i, d, v);
    }
  }
}

// A frame vector's rows as applySimplexRows leaves them, computed as they are read: row i < d - 1
// is c₁ aᵢ - c₂ head, the last head / √(d - 1) (the same operations, so the same numbers).
class FrameRows {
 public:
  FrameRows() = default;
  FrameRows(bool simplex, VF head, int d) : simplex_(simplex), d_(d) {
    if (!simplex) return;
    const DF df;
    const double dm1 = d - 1.0;
    scale_ = hn::Set(df, std::sqrt(d / dm1));
    shift_ = hn::Mul(
        hn::Set(df, (std::sqrt(static_cast<double>(d)) + 1.0) / (dm1 * std::sqrt(dm1))), head);
    last_ = hn::Div(head, hn::Set(df, std::sqrt(dm1)));
  }
  HWY_INLINE VF row(const double* frame, std::int64_t i) const {
    const DF df;
    const VF value = hn::LoadU(df, frame + i * hn::Lanes(df));
    if (!simplex_) return value;
    return i + 1 < d_ ? hn::Sub(hn::Mul(scale_, value), shift_) : last_;
  }

 private:
  bool simplex_ = false;
  int d_ = 0;
  VF scale_, shift_, last_;
};

// fastBlockTrial. scratch: 2 d Lanes(DF) doubles per group.
HWY_NOINLINE void blockTrials(const FastTrialSpec& s, BlockGeometry geometry, VectorStream* rng,
                              double* scratch, VectorFeatureSum* total) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
  const int d = s.dimension;
  const bool planar = usesSecondAxis(s);
  double* a[kGroups];
  double* b[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    a[g] = scratch + 2 * static_cast<std::size_t>(g) * d * n;
    b[g] = a[g] + static_cast<std::size_t>(d) * n;
  }
  const ChiSquareConstants norms(d);
  const bool fixedNorm = geometry == BlockGeometry::OrthogonalFixedNorm;  // √d, none drawn
  const bool simplex = geometry == BlockGeometry::Simplex;
  const VF fixed = hn::Set(df, std::sqrt(static_cast<double>(d)));
  const VF zero = hn::Zero(df);
  for (std::int64_t start = 0; start < s.features; start += d) {
    const std::int64_t rows = s.features - start < d ? s.features - start : d;
    VF headA[kGroups], headB[kGroups];
    randomFrames(rng, d, planar, a, b, simplex ? headA : nullptr,
                 simplex && planar ? headB : nullptr);
    FrameRows rowsA[kGroups], rowsB[kGroups];
    for (int g = 0; g < kGroups; ++g) {
      rowsA[g] = FrameRows(simplex, headA[g], d);
      if (planar) rowsB[g] = FrameRows(simplex, headB[g], d);
    }
    // addBlockFeatures: rows 2m and 2m + 1 draw their norms together.
    for (std::int64_t i = 0; i < rows; i += 2) {
      const int pair = i + 1 < rows ? 2 : 1;
      VF norm[2][kGroups];
      for (int g = 0; g < kGroups; ++g) {
        if (fixedNorm) {
          norm[0][g] = norm[1][g] = fixed;
        } else if (pair == 2) {
          VF first, second;
          rng[g].chiSquarePair(norms, first, second);
          norm[0][g] = hn::Sqrt(first);
          norm[1][g] = hn::Sqrt(second);
        } else {
          norm[0][g] = hn::Sqrt(rng[g].chiSquare(norms));
        }
      }
      for (int r = 0; r < pair; ++r) {
        VF c1[kGroups], c2[kGroups], normSquared[kGroups];
        for (int g = 0; g < kGroups; ++g) {
          const VF scale = norm[r][g];
          c1[g] = hn::Mul(scale, rowsA[g].row(a[g], i + r));
          c2[g] = planar ? hn::Mul(scale, rowsB[g].row(b[g], i + r)) : zero;
          normSquared[g] = hn::Mul(scale, scale);
        }
        for (int g = 0; g < kGroups; ++g)
          total[g].addFeature(c1[g], c2[g], normSquared[g]);
      }
    }
  }
}

}  // namespace

void RunTrials(const FastTrialPlan& plan, std::uint64_t first, int count, SignedLog* values,
               std::vector<double>& scratch) {
  const DF df;
  const int n = static_cast<int>(hn::Lanes(df));
  const FastTrialSpec& s = plan.spec();
  const bool block = plan.kind == FastTrialKind::Block;
  if (block)
    scratch.resize(std::max(scratch.size(), 2 * kGroups * static_cast<std::size_t>(s.dimension) *
                                                static_cast<std::size_t>(n)));
  const int axes = (s.dimension >= 2 && usesSecondAxis(s)) ? 2 : 1;
  const bool secondAxis = block ? usesSecondAxis(s) : axes == 2;
  HWY_ALIGN double maxEnvelope[kMaxLanes], scaled[kMaxLanes];
  // Trials beyond count are computed and dropped (a leaf's last vectors may be partial).
  for (int start = 0; start < count; start += kGroups * n) {
    auto rng = groupStreams(s.seed, first + static_cast<std::uint64_t>(start),
                            std::make_index_sequence<kGroups>());
    auto total = groupSums(s, secondAxis, std::make_index_sequence<kGroups>());
    if (block)
      blockTrials(s, plan.geometry, rng.data(), scratch.data(), total.data());
    else
      iidTrials(s, rng.data(), total.data());
    for (int g = 0; g < kGroups; ++g) {
      hn::Store(total[g].maxEnvelope, df, maxEnvelope);
      hn::Store(total[g].scaled, df, scaled);
      for (int lane = 0; lane < n; ++lane) {
        const int i = start + g * n + lane;
        if (i < count) values[i] = EnvelopeSum{maxEnvelope[lane], scaled[lane]}.result(s.logOffset);
      }
    }
  }
}

double CeilingKernel(const FastTrialPlan& plan, std::uint64_t first, std::int64_t trials,
                     CeilingNormals normals) {
  const DF df;
  const auto n = static_cast<std::int64_t>(hn::Lanes(df));
  const simd_detail::CeilingDraws c(plan);
  const FastTrialSpec& s = plan.spec();
  const VF scale = hn::Set(df, s.sum1);
  VF sum[kGroups];
  for (VF& v : sum)
    v = hn::Zero(df);
  for (std::int64_t start = 0; start < trials; start += kGroups * n) {
    auto rng = groupStreams(s.seed, first + static_cast<std::uint64_t>(start),
                            std::make_index_sequence<kGroups>());
    auto pairs = pairedNormals(rng.data(), std::make_index_sequence<kGroups>());
    const auto normal = [&](int g) HWY_ATTR __attribute__((always_inline)) {
      return normals == CeilingNormals::None ? rng[g].uniform() : pairs[g].next();
    };
    for (std::int64_t f = 0; f < c.features; ++f) {
      if (c.blockRows > 0 && f % c.blockRows == 0)
        for (std::int64_t k = 0; k < c.normalsPerBlock; ++k)
          for (int g = 0; g < kGroups; ++g)
            sum[g] = hn::Add(sum[g], normal(g));
      VF x[kGroups];
      for (int g = 0; g < kGroups; ++g)
        for (std::int64_t k = 0; k < c.normalsPerFeature; ++k)
          x[g] = normal(g);
      for (int g = 0; g < kGroups; ++g) {
        for (std::int64_t k = 0; k < c.uniformsPerFeature; ++k)
          sum[g] = hn::Add(sum[g], rng[g].uniform());
        sum[g] = hn::Add(sum[g], Exp(hn::Mul(scale, x[g])));
      }
    }
  }
  for (int g = 1; g < kGroups; ++g)
    sum[0] = hn::Add(sum[0], sum[g]);
  return hn::GetLane(hn::SumOfLanes(df, sum[0]));
}

#endif  // HWY_TARGET == HWY_SCALAR

std::int64_t TargetBits() {
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace rfscope
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace rfscope {

HWY_EXPORT(RunTrials);
HWY_EXPORT(CeilingKernel);
HWY_EXPORT(TargetBits);

bool simdComputesTrials(const FastTrialPlan& plan) {
  const FastTrialSpec& s = plan.spec();
  const ExponentialFeatureModel& m = s.model;
  if (m.alphaIm != 0 || m.sumIm != 0 || m.diffIm != 0 || m.gammaIm != 0 || m.randomPhase)
    return false;                                                  // cosines
  if (plan.kind == FastTrialKind::Block) return s.dimension >= 2;  // χ²_d with d >= 2
  if (plan.kind != FastTrialKind::Iid) return false;
  const int axes = (s.dimension >= 2 && usesSecondAxis(s)) ? 2 : 1;
  const int rest = s.dimension - axes;
  return !m.needsNormSquared() || rest <= 0 || rest >= 2;
}

void runFastTrialsSimd(const FastTrialPlan& plan, std::uint64_t first, int count, SignedLog* values,
                       std::vector<double>& scratch) {
  requireSimdCap();
  HWY_DYNAMIC_DISPATCH(RunTrials)(plan, first, count, values, scratch);
}

std::int64_t simdTargetBits() {
  requireSimdCap();
  return HWY_DYNAMIC_DISPATCH(TargetBits)();
}

std::string simdTargetName() {
  return hwy::TargetName(simdTargetBits());
}

double simdCeilingKernel(const FastTrialPlan& plan, std::uint64_t first, std::int64_t trials,
                         CeilingNormals normals) {
  requireSimdCap();
  return HWY_DYNAMIC_DISPATCH(CeilingKernel)(plan, first, trials, normals);
}

}  // namespace rfscope
#endif
