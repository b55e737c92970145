#include "core/mechanisms/trig_phase_rf.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/couplings/norm_coupled_variance.h"
#include "core/couplings/trig_orthogonality.h"
#include "core/mechanisms/feature_map_kernels.h"
#include "core/mechanisms/feature_map_recipe.h"

namespace rfscope {
namespace {

// √2 cos(ωᵀx + b) / √M per ω (kernel scale e^{|x|²/2} for softmax), one column per frequency.
class TrigPhaseFeatureMap final : public FeatureMap {
 public:
  TrigPhaseFeatureMap(const FeatureMapSpec& spec, Eigen::MatrixXd omega, Eigen::VectorXd phases)
      : FeatureMap(spec.dimension, spec.features, spec.features),
        omega_(std::move(omega)),
        phases_(std::move(phases)),
        kernel_(spec.kernel),
        packed_(omega_, spec.dimension),
        packedFloat_(omega_, spec.dimension),
        phasesFloat_(phases_.cast<float>()) {}

  bool mapsRows() const override { return true; }

  bool describe(FeatureMapRecipe& out) const override {
    out.form = FeatureMapRecipe::Form::RandomPhase;
    out.kernel = kernel_;
    out.omega = omega_;
    out.phases = phases_;
    return true;
  }

 protected:
  void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
           FeatureMatrix& out) const override {
    mapThroughRows(side, x, out);
  }
  void mapRows(Side, const InputRows& x, FeatureRows<double> out) const override {
    compute(x, packed_, phases_.data(), out);
  }
  void mapRows(Side, const InputRows& x, FeatureRows<float> out) const override {
    compute(x, packedFloat_, phasesFloat_.data(), out);
  }

 private:
  template <class T>
  void compute(const InputRows& x, const PackedFrequencies<T>& omega, const T* phases,
               FeatureRows<T> out) const {
    const Eigen::Index rows = x.rows(), m = features();
    const double logRoot = 0.5 * (std::numbers::ln2 - std::log(double(m)));
    // Blocks of rows, whose projections are still in the cache when their cosines are taken.
    for (Eigen::Index first = 0; first < rows; first += kFeatureRowsPerBlock) {
      const Eigen::Index count = std::min(kFeatureRowsPerBlock, rows - first);
      projectRows(omega, x.data() + first * x.outerStride(), x.outerStride(), count,
                  out.values + first * out.stride, out.stride);
      for (Eigen::Index i = first; i < first + count; ++i) {
        // The row's magnitude √(2/M) e^{kernel scale} as value · 2^k: k = 0 while it is at most
        // 1 (bounded Gaussian features for M >= 2), else the smallest k that brings it into
        // (½, 1].
        const double logMagnitude = logRoot + kernelRowLogScale(kernel_, x.row(i).squaredNorm());
        const double k = logMagnitude > 0 ? std::ceil(logMagnitude / std::numbers::ln2) : 0.0;
        out.logScale[i] = k * std::numbers::ln2;
        const double magnitude = std::exp(logMagnitude - out.logScale[i]);
        const T rescale = takeRowScale(out, i);
        shiftedCosines(out.values + i * out.stride, phases, static_cast<T>(magnitude), rescale, m);
        finishRow(out, i, m);
      }
    }
  }

  Eigen::MatrixXd omega_;   // M × n
  Eigen::VectorXd phases_;  // M
  Kernel kernel_;
  PackedFrequencies<double> packed_;
  PackedFrequencies<float> packedFloat_;
  Eigen::VectorXf phasesFloat_;
};

}  // namespace

double trigPhaseLogVariance(double diffNormSquared) {
  const double oneMinusKSquared = -std::expm1(-diffNormSquared);
  const double halfKFourth = -std::numbers::ln2 - 2.0 * diffNormSquared;
  return oneMinusKSquared > 0 ? logAddExp(std::log(oneMinusKSquared), halfKFourth) : halfKFourth;
}

const MechanismInfo& TrigPhaseRf::info() const {
  static const MechanismInfo info{
      "trig-phase",
      "TrigRF (random phase)",
      "Random Fourier features √2 cos(ωᵀx + b), ω ~ N(0, I), b ~ U[0, 2π): one number per ω",
      "Rahimi & Recht 2007 (scikit-learn's RBFSampler); variance 1 + ½K⁴ - K² derived in RFScope",
      false,
      true,
      Rgb{0, 170, 200}};
  return info;
}

VarianceResult TrigPhaseRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  result.logVariance = trigPhaseLogVariance(pair.geometry.diffNormSquared);
  return result;
}

bool TrigPhaseRf::hasClosedForm(Coupling coupling) const {
  return coupling == Coupling::Iid || coupling == Coupling::Orthogonal ||
         coupling == Coupling::Simplex || coupling == Coupling::OrthogonalNormCoupled;
}

Outcome<CoupledVariance> TrigPhaseRf::coupledLogVariance(Coupling coupling, std::int64_t features,
                                                         const PairInput& pair,
                                                         const VarianceResult& one) const {
  if (coupling == Coupling::Iid)
    return Mechanism::coupledLogVariance(coupling, features, pair, one);
  // The phases are independent, so the cross terms of a block are TrigRF's.
  const auto& g = pair.geometry;
  CoupledVariance result;
  if (coupling == Coupling::OrthogonalNormCoupled) {  // coupled and orthogonal pairs (1-D integral)
    result.logVariance =
        normCoupledTrigLogVariance(*one.logVariance, g.dimension, features, g.diffNormSquared);
    return result;
  }
  if (coupling == Coupling::Simplex) {
    if (g.dimension < 2) return Outcome<CoupledVariance>::unavailable("simrf needs d >= 2");
    result.logVariance =
        coupledTrigLogVariance(*one.logVariance, g.dimension, features,
                               trigSimplexCovariance(g.dimension, g.diffNormSquared));
    return result;
  }
  result.logVariance =
      coupledTrigLogVariance(*one.logVariance, g.dimension, features,
                             trigOrthogonalCovariance(g.dimension, g.diffNormSquared));
  const double gap = trigOrthogonalityGap(g.dimension, features, g.diffNormSquared);
  result.orthogonalityGapSign = (gap > 0) - (gap < 0);
  result.logAbsOrthogonalityGap = std::log(std::abs(gap));
  return result;
}

Outcome<TrialModel> TrigPhaseRf::trialModel(Coupling, const Eigen::VectorXd&,
                                            const Eigen::VectorXd&, const ParameterSet&) const {
  TrialModel model;
  model.exponential.randomPhase = true;
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> TrigPhaseRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                 TrialStream& stream) const {
  // Each phase right after its ω, as the full Monte Carlo trial draws them.
  FrequencyScratch scratch;
  Eigen::MatrixXd omega(spec.features, frequencyDimension(spec.coupling, spec.dimension));
  Eigen::VectorXd phases(spec.features);
  Eigen::Index row = 0;
  forEachFrequency(spec.coupling, spec.dimension, spec.features, spec.simplexPlusIterations, stream,
                   scratch, [&](const auto& w) {
                     omega.row(row) = w.transpose();
                     phases[row++] = kTwoPi * stream.uniform();
                   });
  return std::unique_ptr<FeatureMap>(
      std::make_unique<TrigPhaseFeatureMap>(spec, std::move(omega), std::move(phases)));
}

Outcome<SameQueryCovariance> TrigPhaseRf::sameQueryCovariance(const ParameterSet&) const {
  return SameQueryCovariance{SameQueryCovariance::Form::PhaseDifference, 1, nullptr};
}

}  // namespace rfscope
