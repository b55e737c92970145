// The reproducible functions (reproducible_exp.h, reproducible_exp_float.h, reproducible_sincos.h)
// on every lane of a Highway vector: the scalar code's operations in the scalar code's order, so
// that every SIMD target and the scalar code round identically. Shared by the Monte Carlo trials
// (core/montecarlo/simd_fast_trials.cpp) and the feature maps (core/mechanisms/
// feature_map_kernels.cpp); compile the includer without contraction (-ffp-contract=off).
//
// Highway's per-target header: include it after <hwy/highway.h> in a file compiled once per
// target (foreach_target.h); the toggle below re-opens it for each target.

#if defined(RFSCOPE_CORE_MATH_REPRODUCIBLE_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RFSCOPE_CORE_MATH_REPRODUCIBLE_SIMD_INL_H_
#undef RFSCOPE_CORE_MATH_REPRODUCIBLE_SIMD_INL_H_
#else
#define RFSCOPE_CORE_MATH_REPRODUCIBLE_SIMD_INL_H_
#endif

#include <hwy/highway.h>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_exp_float.h"
#include "core/math/reproducible_sincos.h"
#include "core/math/reproducible_trig.h"

HWY_BEFORE_NAMESPACE();
namespace rfscope {
namespace HWY_NAMESPACE {
namespace reproducible_simd {

namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V>
HWY_INLINE V Horner(D /*d*/, V /*z*/, V inner) {
  return inner;
}
// c + z·(rest...(inner)): the innermost coefficient last.
template <class D, class V, class... C>
HWY_INLINE V Horner(D d, V z, V inner, double c, C... rest) {
  return hn::Add(hn::Set(d, static_cast<hn::TFromD<D>>(c)),
                 hn::Mul(z, Horner(d, z, inner, rest...)));
}

// reproducibleExp (double lanes) or reproducibleExpFloat (float lanes).
template <class D>
HWY_INLINE hn::Vec<D> Exp(D d, hn::Vec<D> x) {
  using V = hn::Vec<D>;
  const hn::RebindToSigned<D> di;
  if constexpr (sizeof(hn::TFromD<D>) == 8) {
    namespace e = reproducible_exp;
    // The clamps of reproducibleExp. Max(bound, x) and Min(bound, x) return x when it is NaN (x86
    // returns the second operand then; the other targets propagate NaN).
    x = hn::Min(hn::Set(d, e::kHighest), hn::Max(hn::Set(d, e::kLowest), x));
    const V magic = hn::Set(d, e::kRoundMagic);
    const V shifted = hn::Add(hn::Mul(x, hn::Set(d, e::kLog2e)), magic);
    const V k = hn::Sub(shifted, magic);
    const V r =
        hn::Sub(hn::Sub(x, hn::Mul(k, hn::Set(d, e::kLn2Hi))), hn::Mul(k, hn::Set(d, e::kLn2Lo)));
    const V r2 = hn::Mul(r, r), r4 = hn::Mul(r2, r2), r8 = hn::Mul(r4, r4);
    const auto term = [&](double c0, double c1) {  // c0 + c1 r
      return hn::Add(hn::Set(d, c0), hn::Mul(hn::Set(d, c1), r));
    };
    const V p03 = hn::Add(term(e::kP0, e::kP1), hn::Mul(term(e::kP2, e::kP3), r2));
    const V p47 = hn::Add(term(e::kP4, e::kP5), hn::Mul(term(e::kP6, e::kP7), r2));
    const V p810 = hn::Add(term(e::kP8, e::kP9), hn::Mul(hn::Set(d, e::kP10), r2));
    const V p = hn::Add(hn::Add(p03, hn::Mul(p47, r4)), hn::Mul(p810, r8));
    const V y = hn::Add(hn::Set(d, 1.0), hn::Add(r, hn::Mul(r2, p)));
    const auto exponent = hn::Sub(hn::BitCast(di, shifted), hn::Set(di, e::bitsOf(e::kRoundMagic)));
    const auto half = hn::ShiftRight<1>(exponent);
    const auto bias = hn::Set(di, 1023);
    const V first = hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(half, bias)));
    const V second = hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(hn::Sub(exponent, half), bias)));
    return hn::Mul(hn::Mul(y, first), second);
  } else {
    namespace e = reproducible_exp_float;
    x = hn::Min(hn::Set(d, e::kHighest), hn::Max(hn::Set(d, e::kLowest), x));
    const V magic = hn::Set(d, e::kRoundMagic);
    const V shifted = hn::Add(hn::Mul(x, hn::Set(d, e::kLog2e)), magic);
    const V k = hn::Sub(shifted, magic);
    const V r =
        hn::Sub(hn::Sub(x, hn::Mul(k, hn::Set(d, e::kLn2Hi))), hn::Mul(k, hn::Set(d, e::kLn2Lo)));
    const V r2 = hn::Mul(r, r);
    const V p = Horner(d, r, hn::Set(d, e::kP5), e::kP0, e::kP1, e::kP2, e::kP3, e::kP4);
    const V y = hn::Add(hn::Set(d, 1.0f), hn::Add(r, hn::Mul(r2, p)));
    const auto exponent = hn::Sub(hn::BitCast(di, shifted), hn::Set(di, e::bitsOf(e::kRoundMagic)));
    const auto half = hn::ShiftRight<1>(exponent);
    const auto bias = hn::Set(di, 127);
    const V first = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(half, bias)));
    const V second = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::Sub(exponent, half), bias)));
    return hn::Mul(hn::Mul(y, first), second);
  }
}

// sin r and cos r of a reduced argument (|r| ≤ π/4), as reproducibleSinCos's kernels compute them
// (fdlibm's k_sin.c and k_cos.c for double lanes; reproducible_trig.h's for float lanes).
template <class D>
HWY_INLINE void SinCosOfReduced(D d, hn::Vec<D> r, hn::Vec<D>& s, hn::Vec<D>& c) {
  using V = hn::Vec<D>;
  using T = hn::TFromD<D>;
  const V z = hn::Mul(r, r);
  V sinPoly, cosPoly;
  if constexpr (sizeof(T) == 8) {
    namespace t = reproducible_sincos;
    sinPoly = Horner(d, z, hn::Set(d, t::kS6), t::kS1, t::kS2, t::kS3, t::kS4, t::kS5);
    cosPoly = Horner(d, z, hn::Set(d, t::kC6), t::kC1, t::kC2, t::kC3, t::kC4, t::kC5);
  } else {
    namespace g = reproducible_trig;
    sinPoly = Horner(d, z, hn::Set(d, g::kS3F), g::kS1F, g::kS2F);
    cosPoly = Horner(d, z, hn::Set(d, g::kC3F), g::kC1F, g::kC2F);
  }
  s = hn::Add(r, hn::Mul(hn::Mul(r, z), sinPoly));
  c = hn::Sub(hn::Set(d, T(1)),
              hn::Sub(hn::Mul(hn::Set(d, T(0.5)), z), hn::Mul(hn::Mul(z, z), cosPoly)));
}

// (sin, cos) of qπ/2 + r from s = sin r, c = cos r and the quadrant's integer q.
template <class D, class VI>
HWY_INLINE void Rotate(D d, VI quadrant, hn::Vec<D> s, hn::Vec<D> c, hn::Vec<D>& sine,
                       hn::Vec<D>& cosine) {
  const hn::RebindToSigned<D> di;
  const VI one = hn::Set(di, 1), two = hn::Set(di, 2);
  const auto swap = hn::RebindMask(d, hn::Ne(hn::And(quadrant, one), hn::Zero(di)));
  const auto negateSine = hn::RebindMask(d, hn::Ne(hn::And(quadrant, two), hn::Zero(di)));
  const auto negateCosine =
      hn::RebindMask(d, hn::Ne(hn::And(hn::Add(quadrant, one), two), hn::Zero(di)));
  const hn::Vec<D> a = hn::IfThenElse(swap, c, s), b = hn::IfThenElse(swap, s, c);
  sine = hn::IfThenElse(negateSine, hn::Neg(a), a);
  cosine = hn::IfThenElse(negateCosine, hn::Neg(b), b);
}

}  // namespace reproducible_simd
}  // namespace HWY_NAMESPACE
}  // namespace rfscope
HWY_AFTER_NAMESPACE();

#endif  // RFSCOPE_CORE_MATH_REPRODUCIBLE_SIMD_INL_H_
