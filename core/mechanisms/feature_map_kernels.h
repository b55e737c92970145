#pragma once
// The vector kernels of the feature maps (Google Highway, dispatched at run time): the projections
// ωᵀx of a block of rows, and e^x, cos and sin over a row of features, in double or in float.
//
// Every result is the same, to the last bit, on every instruction set (AVX-512, AVX2, SSE4, the
// one-lane fallback) and for every split of the rows: a projection is the sum over the input's
// coordinates l = 0, 1, …, d-1 in that order, from 0, of the rounded products ω_l·x_l — plain
// multiplies and adds (the build turns contraction into fused multiply-adds off), lanes across
// independent frequencies; e^x, cos and sin are reproducibleExp and reproducibleSinCos
// (core/math/reproducible_exp*.h, reproducible_trig.h) on every lane.

#include <cstddef>
#include <memory>

#include <Eigen/Core>

namespace rfscope {

// Rows per block for the maps: a block's projections are still in the cache when the features'
// functions run over them.
inline constexpr Eigen::Index kFeatureRowsPerBlock = 64;

// Ω (M × n, its first d columns) laid out for projectRows: panels of kPanel frequencies, and in a
// panel coordinate l's kPanel values side by side (zeros past M), so that the kernel reads every
// panel front to back. 64-byte aligned.
template <class T>
class PackedFrequencies {
 public:
  static constexpr Eigen::Index kPanel = 256 / sizeof(T);  // four AVX-512 vectors

  PackedFrequencies() = default;
  PackedFrequencies(const Eigen::MatrixXd& omega, Eigen::Index dimension);

  Eigen::Index frequencies() const { return frequencies_; }
  Eigen::Index dimension() const { return dimension_; }
  Eigen::Index panels() const { return (frequencies_ + kPanel - 1) / kPanel; }
  // Panel p: dimension() rows of kPanel values.
  const T* panel(Eigen::Index p) const { return data_.get() + p * dimension_ * kPanel; }

 private:
  struct Free {
    void operator()(T* p) const;
  };
  Eigen::Index frequencies_ = 0, dimension_ = 0;
  std::unique_ptr<T[], Free> data_;
};

// out(i, k) = ω_kᵀ x_i for i < rows and k < M, row i at out + i·outStride; x row-major doubles
// (row i at x + i·xStride, d = omega.dimension() entries), rounded to T first.
void projectRows(const PackedFrequencies<double>& omega, const double* x, Eigen::Index xStride,
                 Eigen::Index rows, double* out, Eigen::Index outStride);
void projectRows(const PackedFrequencies<float>& omega, const double* x, Eigen::Index xStride,
                 Eigen::Index rows, float* out, Eigen::Index outStride);

// Every function below multiplies its results by `rescale` last: 1, or 2^k to give a row's
// features as plain numbers (applyLogScales' product, in the same pass).

// v[k] = scale · cos(v[k] + phases[k]) for k < n (random-phase features).
void shiftedCosines(double* v, const double* phases, double scale, double rescale, Eigen::Index n);
void shiftedCosines(float* v, const float* phases, float scale, float rescale, Eigen::Index n);

// e[k] = p[k]·b + (constants[k] + rowConstant) for k < n (e may be p); lowers `smallest` and
// raises `largest` to the smallest and largest e[k].
void affineExponents(const double* p, double b, const double* constants, double rowConstant,
                     double* e, Eigen::Index n, double& smallest, double& largest);
void affineExponents(const float* p, float b, const float* constants, float rowConstant, float* e,
                     Eigen::Index n, float& smallest, float& largest);

// v[k] = e^((v[k] - high) - low) · factor · weight for k < n: the stabilised exponentials of
// exponentiateColumns (high = low = 0 and factor 2^-k where e^v are normal numbers, else the
// reduced arguments with factor 1), times the features' weight.
void exponentials(double* v, double high, double low, double factor, double weight, double rescale,
                  Eigen::Index n);
void exponentials(float* v, float high, float low, float factor, float weight, float rescale,
                  Eigen::Index n);

// Complex features from projections p and log-magnitudes e (stabilised as in exponentials):
// with μ = e^((e[k] - high) - low) · factor · weight and φ = p[k]·b + phases[k],
// re[k] = μ cos φ and im[k] = (imagSign · μ) sin φ. re may be p; im may be e.
void complexExponentials(const double* p, const double* e, double high, double low, double factor,
                         double weight, double b, const double* phases, double imagSign,
                         double rescale, double* re, double* im, Eigen::Index n);
void complexExponentials(const float* p, const float* e, float high, float low, float factor,
                         float weight, float b, const float* phases, float imagSign, float rescale,
                         float* re, float* im, Eigen::Index n);

// The same with one magnitude μ for the whole row (TrigRF: B is imaginary and the constants
// equal): re[k] = μ cos φ, im[k] = (imagSign · μ) sin φ. re may be p.
void sinesAndCosines(const double* p, double magnitude, double b, const double* phases,
                     double imagSign, double rescale, double* re, double* im, Eigen::Index n);
void sinesAndCosines(const float* p, float magnitude, float b, const float* phases, float imagSign,
                     float rescale, float* re, float* im, Eigen::Index n);

}  // namespace rfscope
