#include "core/mechanisms/exponential_features.h"

#include <cassert>
#include <cmath>
#include <numbers>

#include "core/math/log_math.h"
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
        rootFeatures_(std::sqrt(static_cast<double>(spec.features))) {
    assert(!(complex_ && antithetic_));
    const std::complex<double> oneMinus4A = 1.0 - 4.0 * g.a;
    b_ = std::sqrt(static_cast<double>(g.s) * oneMinus4A);
    c_ = -(g.s + 1) / 2.0;
    const std::complex<double> logD =
        0.25 * static_cast<double>(omega_.cols()) * std::log(oneMinus4A);
    const Eigen::VectorXd normSquared = omega_.rowwise().squaredNorm();
    columnConstant_ = logD.real() + g.a.real() * normSquared.array();
    columnPhase_ = logD.imag() + g.a.imag() * normSquared.array();
  }

  // With a real A the phases are ±ωᵀx·Im B, and keys (sB, -Im f) equal queries.
  bool symmetric() const override { return realA_; }

  static bool isComplex(const GeneralizedExponential& g) { return g.a.imag() != 0 || g.s < 0; }

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
    Projections projections;
    projectOnFrequencies(omega_, x, projections);
    const Eigen::Index rows = x.rows(), m = features();
    // Keys take sB for B and carry -Im f, so that Re f⁽¹⁾f⁽²⁾ = Σ queries · keys.
    const double b = side == Side::Keys ? s_ * b_.real() : b_.real();
    const double bImag = side == Side::Keys ? s_ * b_.imag() : b_.imag();
    const double imagSign = side == Side::Keys ? -1.0 : 1.0;
    // Log-magnitudes (one column per point) in place of the projections; the antithetic -ω half
    // and the phases beside them.
    Eigen::MatrixXd& magnitudes = projections.onFrequencies;
    Eigen::MatrixXd mirrored, phases;
    if (antithetic_) mirrored.resize(m, rows);
    if (complex_) phases.resize(m, rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double xx = projections.normSquared[i];
      const double rowConstant = c_ * xx + kernelRowLogScale(kernel_, xx);
      for (Eigen::Index k = 0; k < m; ++k) {
        const double p = magnitudes(k, i);
        magnitudes(k, i) = p * b + (columnConstant_[k] + rowConstant);
        if (antithetic_) mirrored(k, i) = -p * b + (columnConstant_[k] + rowConstant);
        if (complex_) phases(k, i) = p * bImag + columnPhase_[k];
      }
    }
    if (antithetic_) {  // both halves share each point's stabiliser
      Eigen::MatrixXd both(2 * m, rows);
      both << magnitudes, mirrored;
      magnitudes.swap(both);
    }
    exponentiateColumns(magnitudes, out.logScale);
    out.values.resize(rows, width());
    // ½(e^{ωᵀx...}e^{ωᵀy...} + e^{-ωᵀx...}e^{-ωᵀy...}): 1/√2 on each side.
    // Real features: one blocked transpose (the element loop read the column-major M × L
    // magnitudes with stride M); the same divisions and products, so the same bits.
    const double antitheticWeight = std::numbers::sqrt2 / 2;
    if (antithetic_) {
      out.values = (magnitudes.transpose().array() / rootFeatures_ * antitheticWeight).matrix();
      return;
    }
    if (!complex_) {
      out.values = (magnitudes.transpose().array() / rootFeatures_).matrix();
      return;
    }
    for (Eigen::Index k = 0; k < m; ++k)
      for (Eigen::Index i = 0; i < rows; ++i) {
        const double magnitude = magnitudes(k, i) / rootFeatures_;
        out.values(i, k) = magnitude * std::cos(phases(k, i));
        out.values(i, m + k) = imagSign * magnitude * std::sin(phases(k, i));
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
