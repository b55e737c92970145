#include "core/mechanisms/exponential_features.h"

#include <cassert>
#include <cmath>
#include <numbers>

#include "core/math/log_math.h"

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

 protected:
  void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
           FeatureMatrix& out) const override {
    Projections projections;
    projectOnFrequencies(omega_, x, projections);
    const Eigen::Index rows = x.rows(), m = features();
    out.values.resize(rows, width());
    out.logScale.resize(rows);
    // Keys take sB for B and carry -Im f, so that Re f⁽¹⁾f⁽²⁾ = Σ queries · keys.
    const double b = side == Side::Keys ? s_ * b_.real() : b_.real();
    const double bImag = side == Side::Keys ? s_ * b_.imag() : b_.imag();
    const double imagSign = side == Side::Keys ? -1.0 : 1.0;
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double xx = projections.normSquared[i];
      const double rowConstant = c_ * xx + kernelRowLogScale(kernel_, xx);
      double largest = kNegativeInfinity;
      // Exponents (and phases) first, into the row's own cells.
      for (Eigen::Index k = 0; k < m; ++k) {
        const double p = projections.onFrequencies(k, i);
        const double e = p * b + (columnConstant_[k] + rowConstant);
        out.values(i, k) = e;
        largest = std::max(largest, e);
        if (antithetic_) {
          const double mirrored = -p * b + (columnConstant_[k] + rowConstant);
          out.values(i, m + k) = mirrored;
          largest = std::max(largest, mirrored);
        } else if (complex_) {
          out.values(i, m + k) = p * bImag + columnPhase_[k];
        }
      }
      const RowStabiliser stabiliser(largest);
      out.logScale[i] = stabiliser.logScale();
      for (Eigen::Index k = 0; k < m; ++k) {
        const double magnitude = stabiliser.scaledExp(out.values(i, k)) / rootFeatures_;
        if (antithetic_) {  // ½(e^{ωᵀx...}e^{ωᵀy...} + e^{-ωᵀx...}e^{-ωᵀy...}): 1/√2 each side
          out.values(i, k) = magnitude * std::numbers::sqrt2 / 2;
          out.values(i, m + k) =
              stabiliser.scaledExp(out.values(i, m + k)) / rootFeatures_ * std::numbers::sqrt2 / 2;
        } else if (complex_) {
          const double phase = out.values(i, m + k);
          out.values(i, k) = magnitude * std::cos(phase);
          out.values(i, m + k) = imagSign * magnitude * std::sin(phase);
        } else {
          out.values(i, k) = magnitude;
        }
      }
    }
  }

 private:
  Eigen::MatrixXd omega_;  // M × n
  Kernel kernel_;
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
