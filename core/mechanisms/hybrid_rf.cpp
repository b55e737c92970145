#include "core/mechanisms/hybrid_rf.h"

#include <cmath>
#include <numbers>

#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {
namespace {

struct HybridSettings {
  std::int64_t taus = 8;
  bool shared = false;
  double bandwidth = 1;
};

Outcome<HybridSettings> hybridSettings(HybridCoefficient coefficient, Coupling coupling,
                                       const ParameterSet& params) {
  if (coupling != Coupling::Iid)
    return Outcome<HybridSettings>::unavailable(
        "the hybrid estimator is sampled with i.i.d. ω only");
  HybridSettings settings;
  settings.taus = integerOr(params, "n", 8);
  settings.shared = booleanOr(params, "shared", false);
  if (settings.taus < 1)
    return Outcome<HybridSettings>::unavailable("the hybrid estimator needs n >= 1");
  if (coefficient == HybridCoefficient::Gaussian) {
    settings.bandwidth = realOr(params, "bandwidth", 1.0);
    if (!(settings.bandwidth > 0))
      return Outcome<HybridSettings>::unavailable("the Gaussian hybrid needs a bandwidth b > 0");
  }
  return settings;
}

class HybridFeatureMap final : public FeatureMap {
 public:
  HybridFeatureMap(HybridCoefficient coefficient, const HybridSettings& settings,
                   const FeatureMapSpec& spec, Eigen::MatrixXd randomVectors)
      : FeatureMap(spec.dimension, spec.features,
                   spec.features * blockWidth(coefficient, settings)),
        coefficient_(coefficient),
        settings_(settings),
        kernel_(spec.kernel),
        vectors_(std::move(randomVectors)),
        rootFeatures_(std::sqrt(static_cast<double>(spec.features))) {}

  bool symmetric() const override { return false; }

  static Eigen::Index blockWidth(HybridCoefficient coefficient, const HybridSettings& settings) {
    return coefficient == HybridCoefficient::Angular ? 4 + 4 * settings.taus
                                                     : 2 + 8 * settings.taus;
  }
  // Random vectors per feature: n τ's, ω, and ω' unless shared.
  static std::int64_t vectorsPerFeature(const HybridSettings& settings) {
    return settings.taus + (settings.shared ? 1 : 2);
  }

 protected:
  void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
           FeatureMatrix& out) const override {
    Projections projections;
    projectOnFrequencies(vectors_, x, projections);
    const Eigen::Index rows = x.rows(), m = features(), n = settings_.taus;
    const Eigen::Index block = blockWidth(coefficient_, settings_);
    const std::int64_t stride = vectorsPerFeature(settings_);
    const double sign = side == Side::Queries ? -1.0 : 1.0;  // of the λ̂-weighted pos-hyp terms
    const double half = std::numbers::sqrt2 / 2;
    const double tauScale = coefficient_ == HybridCoefficient::Angular
                                ? 1 / std::sqrt(2.0 * static_cast<double>(n))
                                : 1 / std::sqrt(static_cast<double>(n));
    // Log-magnitudes, one column per point: the pos-hyp pair ±ωᵀx - |x|² of every feature, and
    // the trig features' 0, all plus the kernel's scale; one stabiliser per point.
    Eigen::MatrixXd magnitudes(2 * m + 1, rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double xx = projections.normSquared[i];
      const double kernelShift = kernelRowLogScale(kernel_, xx);
      for (Eigen::Index j = 0; j < m; ++j) {
        const double onOmega = projections.onFrequencies(j * stride + n, i);
        magnitudes(2 * j, i) = onOmega - xx + kernelShift;
        magnitudes(2 * j + 1, i) = -onOmega - xx + kernelShift;
      }
      magnitudes(2 * m, i) = kernelShift;
    }
    exponentiateColumns(magnitudes, out.logScale);
    out.values.resize(rows, width());
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double trig = magnitudes(2 * m, i) / rootFeatures_;
      for (Eigen::Index j = 0; j < m; ++j) {
        const double onTrigOmega =
            projections.onFrequencies(j * stride + n + (settings_.shared ? 0 : 1), i);
        const double pos[2] = {magnitudes(2 * j, i) * half / rootFeatures_,
                               magnitudes(2 * j + 1, i) * half / rootFeatures_};
        const double cosSin[2] = {trig * std::cos(onTrigOmega), trig * std::sin(onTrigOmega)};
        auto cell = [&](Eigen::Index column) -> double& {
          return out.values(i, j * block + column);
        };
        if (coefficient_ == HybridCoefficient::Angular) {
          for (int c = 0; c < 2; ++c) {
            cell(c) = pos[c] * half;
            cell(2 + 2 * n + c) = cosSin[c] * half;
          }
          for (Eigen::Index k = 0; k < n; ++k) {
            const double a = projections.onFrequencies(j * stride + k, i) > 0 ? 1.0 : -1.0;
            for (int c = 0; c < 2; ++c) {
              cell(2 + 2 * k + c) = sign * a * tauScale * pos[c];
              cell(4 + 2 * n + 2 * k + c) = a * tauScale * cosSin[c];
            }
          }
        } else {
          for (int c = 0; c < 2; ++c)
            cell(c) = pos[c];
          for (Eigen::Index k = 0; k < n; ++k) {
            const double angle = projections.onFrequencies(j * stride + k, i) / settings_.bandwidth;
            const double tau[2] = {tauScale * std::cos(angle), tauScale * std::sin(angle)};
            for (int t = 0; t < 2; ++t)
              for (int c = 0; c < 2; ++c) {
                cell(2 + 4 * k + 2 * t + c) = sign * tau[t] * pos[c];
                cell(2 + 4 * n + 4 * k + 2 * t + c) = tau[t] * cosSin[c];
              }
          }
        }
      }
    }
  }

 private:
  HybridCoefficient coefficient_;
  HybridSettings settings_;
  Kernel kernel_;
  Eigen::MatrixXd vectors_;  // per feature: τ_1..τ_n, ω, ω' (unless shared), one per row
  double rootFeatures_;
};

}  // namespace

Outcome<TrialModel> hybridTrialModel(HybridCoefficient coefficient, Coupling coupling,
                                     const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                     const ParameterSet& resolved) {
  const Outcome<HybridSettings> settings = hybridSettings(coefficient, coupling, resolved);
  if (!settings) return Outcome<TrialModel>::unavailable(settings.reason());
  TrialModel model;
  model.family = TrialFamily::Hybrid;
  model.hybrid.taus = settings->taus;
  model.hybrid.shared = settings->shared;
  model.hybrid.coefficient = coefficient;
  model.hybrid.bandwidth = settings->bandwidth;
  model.hybrid.posLogConstant = -(x.squaredNorm() + y.squaredNorm());
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> drawHybridFeatureMap(HybridCoefficient coefficient,
                                                          const FeatureMapSpec& spec,
                                                          TrialStream& stream) {
  const Outcome<HybridSettings> settings =
      hybridSettings(coefficient, spec.coupling, spec.parameters);
  if (!settings) return Outcome<std::unique_ptr<FeatureMap>>::unavailable(settings.reason());
  // τ's, ω and ω' are i.i.d. normal vectors drawn one after the other: one i.i.d. draw of them all.
  Eigen::MatrixXd vectors =
      frequencies(Coupling::Iid, spec.dimension,
                  spec.features * HybridFeatureMap::vectorsPerFeature(*settings), stream);
  return std::unique_ptr<FeatureMap>(
      std::make_unique<HybridFeatureMap>(coefficient, *settings, spec, std::move(vectors)));
}

}  // namespace rfscope
