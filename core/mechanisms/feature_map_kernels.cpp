// The feature maps' vector kernels (see feature_map_kernels.h). Highway compiles this file once per
// instruction set (foreach_target.h) and dispatches at run time.
//
// The projections: a tile of R rows × V vectors of frequencies keeps its R·V sums in registers
// while it runs through the d coordinates (one load of V vectors of ω and R broadcasts of x per
// coordinate): every lane sums its own products in coordinate order, so the tile's shape, the
// vector length and the blocking change nothing in the bits. Rows go in blocks of kBlockRows, for
// which a panel's slice of ω stays in the L1 cache.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/mechanisms/feature_map_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_exp_float.h"
#include "core/math/reproducible_simd-inl.h"
#include "core/math/reproducible_trig.h"
#include "core/mechanisms/feature_map_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace rfscope {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using Index = Eigen::Index;

constexpr Index kBlockRows = 64;
constexpr int kTileRows = 4;  // 6 measured no faster
// Vectors of frequencies per tile: 4 where there are 32 registers (AVX-512), else 2.
constexpr int kTileVectors = HWY_MAX_BYTES >= 64 ? 4 : 2;
template <class T>
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(T);

// ---- e^x, sin and cos: reproducibleExp and reproducibleSinCos on every lane ----
// (reproducible_simd-inl.h, shared with the Monte Carlo trials; sin and cos here of radians).

using reproducible_simd::Exp;
using reproducible_simd::Rotate;
using reproducible_simd::SinCosOfReduced;

template <class D>
HWY_INLINE void SinCos(D d, hn::Vec<D> x, hn::Vec<D>& sine, hn::Vec<D>& cosine) {
  using V = hn::Vec<D>;
  using T = hn::TFromD<D>;
  const hn::RebindToSigned<D> di;
  namespace g = reproducible_trig;
  if constexpr (sizeof(T) == 8) {
    namespace e = reproducible_exp;
    x = hn::Min(hn::Set(d, g::kLargest), hn::Max(hn::Set(d, -g::kLargest), x));
    const V magic = hn::Set(d, e::kRoundMagic);
    const V shifted = hn::Add(hn::Mul(x, hn::Set(d, g::kTwoOverPi)), magic);
    const V n = hn::Sub(shifted, magic);
    const V r = hn::Sub(hn::Sub(hn::Sub(x, hn::Mul(n, hn::Set(d, g::kPiOver2Part1))),
                                hn::Mul(n, hn::Set(d, g::kPiOver2Part2))),
                        hn::Mul(n, hn::Set(d, g::kPiOver2Part3)));
    V s, c;
    SinCosOfReduced(d, r, s, c);
    const auto quadrant = hn::Sub(hn::BitCast(di, shifted), hn::Set(di, e::bitsOf(e::kRoundMagic)));
    Rotate(d, quadrant, s, c, sine, cosine);
  } else {
    const V magic = hn::Set(d, g::kRoundMagicF);
    const V shifted = hn::Add(hn::Mul(x, hn::Set(d, g::kTwoOverPiF)), magic);
    const V n = hn::Sub(shifted, magic);
    const V r = hn::Sub(hn::Sub(hn::Sub(x, hn::Mul(n, hn::Set(d, g::kPiOver2Part1F))),
                                hn::Mul(n, hn::Set(d, g::kPiOver2Part2F))),
                        hn::Mul(n, hn::Set(d, g::kPiOver2Part3F)));
    V s, c;
    SinCosOfReduced(d, r, s, c);
    const auto quadrant =
        hn::Sub(hn::BitCast(di, shifted), hn::Set(di, g::floatBits(g::kRoundMagicF)));
    Rotate(d, quadrant, s, c, sine, cosine);
    // Lanes past the float reduction's range: the double result, lane by lane (rare).
    const auto inRange = hn::Lt(hn::Abs(x), hn::Set(d, g::kFloatRange));
    if (HWY_UNLIKELY(!hn::AllTrue(d, inRange))) {
      HWY_ALIGN T xs[kMaxLanes<T>], ss[kMaxLanes<T>], cs[kMaxLanes<T>];
      hn::Store(x, d, xs);
      hn::Store(sine, d, ss);
      hn::Store(cosine, d, cs);
      for (std::size_t i = 0; i < hn::Lanes(d); ++i)
        if (!(xs[i] > -g::kFloatRange && xs[i] < g::kFloatRange))
          reproducibleSinCos(xs[i], ss[i], cs[i]);
      sine = hn::Load(d, ss);
      cosine = hn::Load(d, cs);
    }
  }
}

// Runs step(k, lanes) over [0, n) a vector at a time; the last, partial vector through padded
// copies (the caller's step reads and writes through the pointers it is given).
template <class D, class Step>
HWY_INLINE void ForEachVector(D d, Index n, const Step& step) {
  const Index lanes = static_cast<Index>(hn::Lanes(d));
  Index k = 0;
  for (; k + lanes <= n; k += lanes)
    step(k, lanes);
  if (k < n) step(k, n - k);
}

// Loads `count` values (a whole vector or the tail, zero-padded).
template <class D>
HWY_INLINE hn::Vec<D> LoadPart(D d, const hn::TFromD<D>* p, Index count) {
  if (count == static_cast<Index>(hn::Lanes(d))) return hn::LoadU(d, p);
  HWY_ALIGN hn::TFromD<D> buffer[kMaxLanes<hn::TFromD<D>>] = {};
  std::copy(p, p + count, buffer);
  return hn::Load(d, buffer);
}

template <class D>
HWY_INLINE void StorePart(D d, hn::Vec<D> v, hn::TFromD<D>* p, Index count) {
  if (count == static_cast<Index>(hn::Lanes(d))) return hn::StoreU(v, d, p);
  HWY_ALIGN hn::TFromD<D> buffer[kMaxLanes<hn::TFromD<D>>];
  hn::Store(v, d, buffer);
  std::copy(buffer, buffer + count, p);
}

// ---- projections ----

// Rows x_0 … x_{R-1} against V vectors of frequencies (a slice of a panel, `slice` its first
// column): R·V independent sums in coordinate order. `valid` frequencies of the slice are
// stored (fewer than V vectors at the end of the last panel).
template <int R, class D, class T = hn::TFromD<D>>
HWY_INLINE void Tile(D d, const T* HWY_RESTRICT slice, Index dimension, const T* const* x,
                     T* const* out, Index valid) {
  constexpr int V = kTileVectors;
  constexpr Index kPanel = PackedFrequencies<T>::kPanel;
  const Index lanes = static_cast<Index>(hn::Lanes(d));
  // The loops over r and v unrolled, so that the sums stay in registers (-O2 would not).
  hn::Vec<D> sum[R][V];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      sum[r][v] = hn::Zero(d);
  for (Index l = 0; l < dimension; ++l) {
    const T* w = slice + l * kPanel;
    hn::Vec<D> omega[V];
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      omega[v] = hn::Load(d, w + v * lanes);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const hn::Vec<D> xl = hn::Set(d, x[r][l]);
#pragma GCC unroll 16
      for (int v = 0; v < V; ++v)
        sum[r][v] = hn::Add(sum[r][v], hn::Mul(xl, omega[v]));
    }
  }
  if (valid == V * lanes) {
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
      for (int v = 0; v < V; ++v)
        hn::StoreU(sum[r][v], d, out[r] + v * lanes);
    return;
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V && v * lanes < valid; ++v)
      StorePart(d, sum[r][v], out[r] + v * lanes, std::min(lanes, valid - v * lanes));
}

// Tiles of R rows from row i on, while R rows are left; i ends past them.
template <int R, class D, class T = hn::TFromD<D>>
HWY_INLINE void RunTiles(D d, const T* w, Index dimension, const T* block, Index blockStride,
                         T* out, Index outStride, Index valid, Index count, Index& i) {
  for (; i + R <= count; i += R) {
    const T* xs[R];
    T* outs[R];
    for (int r = 0; r < R; ++r) {
      xs[r] = block + (i + r) * blockStride;
      outs[r] = out + (i + r) * outStride;
    }
    Tile<R>(d, w, dimension, xs, outs, valid);
  }
}

template <class T>
void ProjectRowsT(const PackedFrequencies<T>& omega, const double* x, Index xStride, Index rows,
                  T* out, Index outStride) {
  const hn::ScalableTag<T> d;
  constexpr Index kPanel = PackedFrequencies<T>::kPanel;
  const Index dimension = omega.dimension(), m = omega.frequencies();
  const Index slice = kTileVectors * static_cast<Index>(hn::Lanes(d));
  std::vector<T> converted;
  for (Index first = 0; first < rows; first += kBlockRows) {
    const Index count = std::min(kBlockRows, rows - first);
    // The block's rows in T (float: rounded once, here).
    const T* block = nullptr;
    Index blockStride = xStride;
    if constexpr (sizeof(T) == sizeof(double)) {
      block = x + first * xStride;
    } else {
      converted.resize(static_cast<std::size_t>(count * dimension));
      for (Index i = 0; i < count; ++i)
        for (Index l = 0; l < dimension; ++l)
          converted[static_cast<std::size_t>(i * dimension + l)] =
              static_cast<T>(x[(first + i) * xStride + l]);
      block = converted.data();
      blockStride = dimension;
    }
    for (Index p = 0; p < omega.panels(); ++p) {
      for (Index s = 0; s < kPanel && p * kPanel + s < m; s += slice) {
        const Index column = p * kPanel + s;
        const Index valid = std::min(slice, m - column);
        const T* w = omega.panel(p) + s;
        Index i = 0;
        RunTiles<kTileRows>(d, w, dimension, block, blockStride, out + first * outStride + column,
                            outStride, valid, count, i);
        RunTiles<1>(d, w, dimension, block, blockStride, out + first * outStride + column,
                    outStride, valid, count, i);
      }
    }
  }
}

// ---- features over a row ----

template <class T>
void ShiftedCosinesT(T* v, const T* phases, T scale, T rescale, Index n) {
  const hn::ScalableTag<T> d;
  const auto factor = hn::Set(d, scale), last = hn::Set(d, rescale);
  ForEachVector(d, n, [&](Index k, Index count) {
    hn::Vec<decltype(d)> sine, cosine;
    SinCos(d, hn::Add(LoadPart(d, v + k, count), LoadPart(d, phases + k, count)), sine, cosine);
    StorePart(d, hn::Mul(hn::Mul(factor, cosine), last), v + k, count);
  });
}

template <class T>
void AffineExponentsT(const T* p, T b, const T* constants, T rowConstant, T* e, Index n,
                      T& smallest, T& largest) {
  const hn::ScalableTag<T> d;
  const auto slope = hn::Set(d, b), shift = hn::Set(d, rowConstant);
  auto low = hn::Set(d, smallest), high = hn::Set(d, largest);
  ForEachVector(d, n, [&](Index k, Index count) {
    const auto value = hn::Add(hn::Mul(LoadPart(d, p + k, count), slope),
                               hn::Add(LoadPart(d, constants + k, count), shift));
    const auto counted = hn::FirstN(d, static_cast<std::size_t>(count));
    low = hn::IfThenElse(counted, hn::Min(low, value), low);
    high = hn::IfThenElse(counted, hn::Max(high, value), high);
    StorePart(d, value, e + k, count);
  });
  smallest = hn::GetLane(hn::MinOfLanes(d, low));
  largest = hn::GetLane(hn::MaxOfLanes(d, high));
}

template <class T>
void ExponentialsT(T* v, T high, T low, T factor, T weight, T rescale, Index n) {
  const hn::ScalableTag<T> d;
  const auto h = hn::Set(d, high), l = hn::Set(d, low), f = hn::Set(d, factor),
             w = hn::Set(d, weight), last = hn::Set(d, rescale);
  ForEachVector(d, n, [&](Index k, Index count) {
    const auto reduced = hn::Sub(hn::Sub(LoadPart(d, v + k, count), h), l);
    StorePart(d, hn::Mul(hn::Mul(hn::Mul(Exp(d, reduced), f), w), last), v + k, count);
  });
}

// re = (μ cos φ)·rescale, im = ((imagSign·μ) sin φ)·rescale, φ = p·b + phases, for one vector.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void StoreSinCos(D d, V magnitude, V p, V slope, V phases, V sign, V last,
                            hn::TFromD<D>* re, hn::TFromD<D>* im, Index count) {
  V sine, cosine;
  SinCos(d, hn::Add(hn::Mul(p, slope), phases), sine, cosine);
  StorePart(d, hn::Mul(hn::Mul(magnitude, cosine), last), re, count);
  StorePart(d, hn::Mul(hn::Mul(hn::Mul(sign, magnitude), sine), last), im, count);
}

template <class T>
void ComplexExponentialsT(const T* p, const T* e, T high, T low, T factor, T weight, T b,
                          const T* phases, T imagSign, T rescale, T* re, T* im, Index n) {
  const hn::ScalableTag<T> d;
  const auto h = hn::Set(d, high), l = hn::Set(d, low), f = hn::Set(d, factor),
             w = hn::Set(d, weight), slope = hn::Set(d, b), sign = hn::Set(d, imagSign),
             last = hn::Set(d, rescale);
  ForEachVector(d, n, [&](Index k, Index count) {
    const auto reduced = hn::Sub(hn::Sub(LoadPart(d, e + k, count), h), l);
    const auto magnitude = hn::Mul(hn::Mul(Exp(d, reduced), f), w);
    StoreSinCos(d, magnitude, LoadPart(d, p + k, count), slope, LoadPart(d, phases + k, count),
                sign, last, re + k, im + k, count);
  });
}

template <class T>
void SinesAndCosinesT(const T* p, T magnitude, T b, const T* phases, T imagSign, T rescale, T* re,
                      T* im, Index n) {
  const hn::ScalableTag<T> d;
  const auto mu = hn::Set(d, magnitude), slope = hn::Set(d, b), sign = hn::Set(d, imagSign),
             last = hn::Set(d, rescale);
  ForEachVector(d, n, [&](Index k, Index count) {
    StoreSinCos(d, mu, LoadPart(d, p + k, count), slope, LoadPart(d, phases + k, count), sign, last,
                re + k, im + k, count);
  });
}

}  // namespace

void ProjectRowsD(const PackedFrequencies<double>& omega, const double* x, Index xStride,
                  Index rows, double* out, Index outStride) {
  ProjectRowsT(omega, x, xStride, rows, out, outStride);
}
void ProjectRowsF(const PackedFrequencies<float>& omega, const double* x, Index xStride, Index rows,
                  float* out, Index outStride) {
  ProjectRowsT(omega, x, xStride, rows, out, outStride);
}
void ShiftedCosinesD(double* v, const double* phases, double scale, double rescale, Index n) {
  ShiftedCosinesT(v, phases, scale, rescale, n);
}
void ShiftedCosinesF(float* v, const float* phases, float scale, float rescale, Index n) {
  ShiftedCosinesT(v, phases, scale, rescale, n);
}
void AffineExponentsD(const double* p, double b, const double* constants, double rowConstant,
                      double* e, Index n, double& smallest, double& largest) {
  AffineExponentsT(p, b, constants, rowConstant, e, n, smallest, largest);
}
void AffineExponentsF(const float* p, float b, const float* constants, float rowConstant, float* e,
                      Index n, float& smallest, float& largest) {
  AffineExponentsT(p, b, constants, rowConstant, e, n, smallest, largest);
}
void ExponentialsD(double* v, double high, double low, double factor, double weight, double rescale,
                   Index n) {
  ExponentialsT(v, high, low, factor, weight, rescale, n);
}
void ExponentialsF(float* v, float high, float low, float factor, float weight, float rescale,
                   Index n) {
  ExponentialsT(v, high, low, factor, weight, rescale, n);
}
void ComplexExponentialsD(const double* p, const double* e, double high, double low, double factor,
                          double weight, double b, const double* phases, double imagSign,
                          double rescale, double* re, double* im, Index n) {
  ComplexExponentialsT(p, e, high, low, factor, weight, b, phases, imagSign, rescale, re, im, n);
}
void ComplexExponentialsF(const float* p, const float* e, float high, float low, float factor,
                          float weight, float b, const float* phases, float imagSign, float rescale,
                          float* re, float* im, Index n) {
  ComplexExponentialsT(p, e, high, low, factor, weight, b, phases, imagSign, rescale, re, im, n);
}
void SinesAndCosinesD(const double* p, double magnitude, double b, const double* phases,
                      double imagSign, double rescale, double* re, double* im, Index n) {
  SinesAndCosinesT(p, magnitude, b, phases, imagSign, rescale, re, im, n);
}
void SinesAndCosinesF(const float* p, float magnitude, float b, const float* phases, float imagSign,
                      float rescale, float* re, float* im, Index n) {
  SinesAndCosinesT(p, magnitude, b, phases, imagSign, rescale, re, im, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace rfscope
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace rfscope {

HWY_EXPORT(ProjectRowsD);
HWY_EXPORT(ProjectRowsF);
HWY_EXPORT(ShiftedCosinesD);
HWY_EXPORT(ShiftedCosinesF);
HWY_EXPORT(AffineExponentsD);
HWY_EXPORT(AffineExponentsF);
HWY_EXPORT(ExponentialsD);
HWY_EXPORT(ExponentialsF);
HWY_EXPORT(ComplexExponentialsD);
HWY_EXPORT(ComplexExponentialsF);
HWY_EXPORT(SinesAndCosinesD);
HWY_EXPORT(SinesAndCosinesF);

template <class T>
void PackedFrequencies<T>::Free::operator()(T* p) const {
  ::operator delete[](p, std::align_val_t{64});
}

template <class T>
PackedFrequencies<T>::PackedFrequencies(const Eigen::MatrixXd& omega, Eigen::Index dimension)
    : frequencies_(omega.rows()), dimension_(dimension) {
  const std::size_t size =
      static_cast<std::size_t>(std::max<Eigen::Index>(panels(), 1) * dimension_ * kPanel);
  data_.reset(static_cast<T*>(::operator new[](size * sizeof(T), std::align_val_t{64})));
  std::fill(data_.get(), data_.get() + size, T{0});
  for (Eigen::Index k = 0; k < frequencies_; ++k)
    for (Eigen::Index l = 0; l < dimension_; ++l)
      data_[static_cast<std::size_t>((k / kPanel) * dimension_ * kPanel + l * kPanel +
                                     k % kPanel)] = static_cast<T>(omega(k, l));
}

template class PackedFrequencies<double>;
template class PackedFrequencies<float>;

void projectRows(const PackedFrequencies<double>& omega, const double* x, Eigen::Index xStride,
                 Eigen::Index rows, double* out, Eigen::Index outStride) {
  HWY_DYNAMIC_DISPATCH(ProjectRowsD)(omega, x, xStride, rows, out, outStride);
}
void projectRows(const PackedFrequencies<float>& omega, const double* x, Eigen::Index xStride,
                 Eigen::Index rows, float* out, Eigen::Index outStride) {
  HWY_DYNAMIC_DISPATCH(ProjectRowsF)(omega, x, xStride, rows, out, outStride);
}
void shiftedCosines(double* v, const double* phases, double scale, double rescale, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ShiftedCosinesD)(v, phases, scale, rescale, n);
}
void shiftedCosines(float* v, const float* phases, float scale, float rescale, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ShiftedCosinesF)(v, phases, scale, rescale, n);
}
void affineExponents(const double* p, double b, const double* constants, double rowConstant,
                     double* e, Eigen::Index n, double& smallest, double& largest) {
  HWY_DYNAMIC_DISPATCH(AffineExponentsD)(p, b, constants, rowConstant, e, n, smallest, largest);
}
void affineExponents(const float* p, float b, const float* constants, float rowConstant, float* e,
                     Eigen::Index n, float& smallest, float& largest) {
  HWY_DYNAMIC_DISPATCH(AffineExponentsF)(p, b, constants, rowConstant, e, n, smallest, largest);
}
void exponentials(double* v, double high, double low, double factor, double weight, double rescale,
                  Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ExponentialsD)(v, high, low, factor, weight, rescale, n);
}
void exponentials(float* v, float high, float low, float factor, float weight, float rescale,
                  Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ExponentialsF)(v, high, low, factor, weight, rescale, n);
}
void complexExponentials(const double* p, const double* e, double high, double low, double factor,
                         double weight, double b, const double* phases, double imagSign,
                         double rescale, double* re, double* im, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ComplexExponentialsD)
  (p, e, high, low, factor, weight, b, phases, imagSign, rescale, re, im, n);
}
void complexExponentials(const float* p, const float* e, float high, float low, float factor,
                         float weight, float b, const float* phases, float imagSign, float rescale,
                         float* re, float* im, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(ComplexExponentialsF)
  (p, e, high, low, factor, weight, b, phases, imagSign, rescale, re, im, n);
}
void sinesAndCosines(const double* p, double magnitude, double b, const double* phases,
                     double imagSign, double rescale, double* re, double* im, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(SinesAndCosinesD)(p, magnitude, b, phases, imagSign, rescale, re, im, n);
}
void sinesAndCosines(const float* p, float magnitude, float b, const float* phases, float imagSign,
                     float rescale, float* re, float* im, Eigen::Index n) {
  HWY_DYNAMIC_DISPATCH(SinesAndCosinesF)(p, magnitude, b, phases, imagSign, rescale, re, im, n);
}

}  // namespace rfscope
#endif  // HWY_ONCE
