#include "core/mechanisms/exponential_features.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/math/log_math.h"
#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_exp_float.h"
#include "core/mechanisms/feature_map_kernels.h"
#include "core/mechanisms/feature_map_recipe.h"

namespace rfscope {
namespace {

class ExponentialFeatureMap final : public FeatureMap {
 public:
  ExponentialFeatureMap(const GeneralizedExponential& g, const FeatureMapSpec& spec,
                        Eigen::MatrixXd omega)
      : FeatureMap(spec.dimension, spec.features,
                   spec.features * (isComplex(g) || g.antithetic ? 2 : 1)),
        omega_(std::move(omega)),
        kernel_(spec.kernel),
        a_(g.a),
        s_(g.s),
        antithetic_(g.antithetic),
        complex_(isComplex(g)),
        realA_(g.a.imag() == 0),
        rootFeatures_(std::sqrt(static_cast<double>(spec.features))),
        packed_(omega_, spec.dimension),
        packedFloat_(omega_, spec.dimension) {
    assert(!(complex_ && antithetic_));
    const std::complex<double> oneMinus4A = 1.0 - 4.0 * g.a;
    b_ = std::sqrt(static_cast<double>(g.s) * oneMinus4A);
    c_ = -(g.s + 1) / 2.0;
    const std::complex<double> logD =
        0.25 * static_cast<double>(omega_.cols()) * std::log(oneMinus4A);
    const Eigen::VectorXd normSquared = omega_.rowwise().squaredNorm();
    columnConstant_ = logD.real() + g.a.real() * normSquared.array();
    columnPhase_ = logD.imag() + g.a.imag() * normSquared.array();
    columnConstantFloat_ = columnConstant_.cast<float>();
    // B imaginary and the constants equal: one magnitude per row.
    constantMagnitude_ =
        complex_ && b_.real() == 0 && (columnConstant_ == columnConstant_[0]).all();
    columnPhaseFloat_ = columnPhase_.cast<float>();
  }

  // With a real A the phases are ±ωᵀx·Im B, and keys (sB, -Im f) equal queries.
  bool symmetric() const override { return realA_; }

  static bool isComplex(const GeneralizedExponential& g) { return g.a.imag() != 0 || g.s < 0; }

  bool mapsRows() const override { return true; }

  bool describe(FeatureMapRecipe& out) const override {
    out.form = FeatureMapRecipe::Form::GeneralizedExponential;
    out.kernel = kernel_;
    out.omega = omega_;
    out.a = a_;
    out.s = s_;
    out.antithetic = antithetic_;
    return true;
  }

 protected:
  void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
           FeatureMatrix& out) const override {
    mapThroughRows(side, x, out);
  }
  void mapRows(Side side, const InputRows& x, FeatureRows<double> out) const override {
    compute(side, x, packed_, columnConstant_.data(), columnPhase_.data(), out);
  }
  void mapRows(Side side, const InputRows& x, FeatureRows<float> out) const override {
    compute(side, x, packedFloat_, columnConstantFloat_.data(), columnPhaseFloat_.data(), out);
  }

 private:
  // Per row: the projections p (in the row's first M places), the log-magnitudes
  // p·B + (A|ω|² + log D) + (c|x|² + kernel scale), stabilised together (exponentiateColumns);
  // the antithetic -ω half and the imaginary parts in the next M places.
  template <class T>
  void compute(Side side, const InputRows& x, const PackedFrequencies<T>& omega, const T* constants,
               const T* phases, FeatureRows<T> out) const {
    const Eigen::Index rows = x.rows(), m = features();
    // Keys take sB for B and carry -Im f, so that Re f⁽¹⁾f⁽²⁾ = Σ queries · keys.
    const T b = static_cast<T>(side == Side::Keys ? s_ * b_.real() : b_.real());
    const T bImag = static_cast<T>(side == Side::Keys ? s_ * b_.imag() : b_.imag());
    const T imagSign = side == Side::Keys ? -1 : 1;
    // ½(e^{ωᵀx...}e^{ωᵀy...} + e^{-ωᵀx...}e^{-ωᵀy...}): 1/√2 on each side.
    const T weight = static_cast<T>((antithetic_ ? std::numbers::sqrt2 / 2 : 1.0) / rootFeatures_);
    for (Eigen::Index first = 0; first < rows; first += kFeatureRowsPerBlock) {
      const Eigen::Index count = std::min(kFeatureRowsPerBlock, rows - first);
      projectRows(omega, x.data() + first * x.outerStride(), x.outerStride(), count,
                  out.values + first * out.stride, out.stride);
      for (Eigen::Index i = first; i < first + count; ++i) {
        T* row = out.values + i * out.stride;
        const double xx = x.row(i).squaredNorm();
        const T rowConstant = static_cast<T>(c_ * xx + kernelRowLogScale(kernel_, xx));
        if (constantMagnitude_) {  // TrigRF: e = 0·p + (constant + rowConstant) for every k
          const T e = constants[0] + rowConstant;
          const RowStabiliser<T> s = rowStabiliser(e, e, false);
          out.logScale[i] = s.logScale;
          const T magnitude =
              reproducibleExp(static_cast<T>((e - s.high) - s.low)) * s.factor * weight;
          const T rescale = takeRowScale(out, i);
          sinesAndCosines(row, magnitude, bImag, phases, imagSign, rescale, row, row + m, m);
          finishRow(out, i, width());
          continue;
        }
        T smallest = std::numeric_limits<T>::infinity(), largest = -smallest;
        if (antithetic_)  // the mirrored half first: it reads the projections
          affineExponents(row, -b, constants, rowConstant, row + m, m, smallest, largest);
        affineExponents(row, b, constants, rowConstant, complex_ ? row + m : row, m, smallest,
                        largest);
        const RowStabiliser<T> s = rowStabiliser(smallest, largest, m == 0);
        out.logScale[i] = s.logScale;
        const T rescale = takeRowScale(out, i);
        if (complex_)
          complexExponentials(row, row + m, s.high, s.low, s.factor, weight, bImag, phases,
                              imagSign, rescale, row, row + m, m);
        else
          exponentials(row, s.high, s.low, s.factor, weight, rescale, antithetic_ ? 2 * m : m);
        finishRow(out, i, width());
      }
    }
  }

 private:
  Eigen::MatrixXd omega_;  // M × n
  Kernel kernel_;
  std::complex<double> a_;
  int s_;
  bool antithetic_, complex_, realA_;
  double rootFeatures_;
  std::complex<double> b_;
  double c_ = 0;
  Eigen::ArrayXd columnConstant_, columnPhase_;  // Re and Im of log D + A|ω_k|²
  PackedFrequencies<double> packed_;
  PackedFrequencies<float> packedFloat_;
  Eigen::ArrayXf columnConstantFloat_, columnPhaseFloat_;
  bool constantMagnitude_ = false;
};

}  // namespace

Outcome<std::unique_ptr<FeatureMap>> drawExponentialFeatureMap(const GeneralizedExponential& g,
                                                               const FeatureMapSpec& spec,
                                                               TrialStream& stream) {
  if (!((1.0 - 4.0 * g.a).real() > 0))
    return Outcome<std::unique_ptr<FeatureMap>>::unavailable(
        "GERF needs Re(1 - 4A) > 0 (CRT Thm 3.1)");
  FrequencyScratch scratch;
  Eigen::MatrixXd omega;
  frequencies(spec.coupling, spec.dimension, spec.features, stream, scratch, omega,
              spec.simplexPlusIterations);
  return std::unique_ptr<FeatureMap>(
      std::make_unique<ExponentialFeatureMap>(g, spec, std::move(omega)));
}

}  // namespace rfscope
