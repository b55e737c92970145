#include "core/mechanisms/dense_exponential_rf.h"

#include <cmath>
#include <memory>
#include <vector>

#include "core/mechanisms/dense_exponential_features.h"
#include "core/mechanisms/trial_kernel.h"
#include "core/params/invalid_parameter.h"

namespace rfscope {
namespace {

Eigen::VectorXd paddedVector(const Eigen::VectorXd& v, Eigen::Index n) {
  if (v.size() >= n) return v;
  Eigen::VectorXd out = Eigen::VectorXd::Zero(n);
  out.head(v.size()) = v;
  return out;
}

// DERF's trial: exp(Σ_l w_l ω_l² + Σ_l v_l ω_l) per feature — a diagonal quadratic form and a
// linear term in the coordinates of ω as the coupling draws it, so every coordinate of ω is needed
// (no pair frame captures a quadratic form that is not a multiple of |ω|²).
class DenseExponentialTrial final : public TrialKernel {
 public:
  std::vector<double> quadratic;  // w_l
  std::vector<double> linear;     // v_l

  void addFeatureProducts(const TrialInputs& in, TrialStream& rng,
                          EnvelopeSum& total) const override {
    forEachFrequency(in.coupling, in.dimension, in.features, in.simplexPlusIterations, rng,
                     *in.scratch, [&](const auto& omega) {
                       double exponent = 0;
                       for (int l = 0; l < in.dimension; ++l)
                         exponent += (quadratic[l] * omega[l] + linear[l]) * omega[l];
                       total.add(exponent, 1.0);
                     });
  }
};

}  // namespace

ParameterSet DenseExponentialRf::chosenParameters(const DerfMoments& moments,
                                                  const ParameterSet& params) const {
  auto attachment = std::make_shared<DerfAttachment>();
  attachment->mechanism = info().id;
  attachment->moments = moments;
  attachment->denseA = denseA(params);
  attachment->choice = choose(moments, attachment->denseA);
  ParameterSet chosen;
  // The averaged objective mean log(E Z²/K²) the matrices minimise: what a reader can compare.
  chosen.set("objective", attachment->choice.objective);
  chosen.attach(std::move(attachment));
  return chosen;
}

const DerfAttachment* DenseExponentialRf::attached(const ParameterSet& params) const {
  const auto* attachment = dynamic_cast<const DerfAttachment*>(params.attachment().get());
  return attachment && attachment->mechanism == info().id ? attachment : nullptr;
}

std::optional<DerfChoice> DenseExponentialRf::attachedChoice(const ParameterSet& params) const {
  const DerfAttachment* attachment = attached(params);
  if (!attachment) return std::nullopt;
  const bool dense = denseA(params);
  return attachment->denseA == dense ? attachment->choice : choose(attachment->moments, dense);
}

DerfChoice DenseExponentialRf::matricesFor(const ParameterSet& params, const Eigen::VectorXd& x,
                                           const Eigen::VectorXd& y) const {
  if (auto choice = attachedChoice(params)) return *std::move(choice);
  return choose(derfMoments({x}, {y}), denseA(params));
}

VarianceResult DenseExponentialRf::logVariance(const PairInput& pair,
                                               const ParameterSet& params) const {
  const DerfAttachment* attachment = attached(params);
  VarianceResult result;
  if (attachment && attachment->denseA == denseA(params)) {
    result.parametersUsed = params;  // the set's choice, as given
  } else {
    result.parametersUsed = chosenParameters(
        attachment ? attachment->moments : derfMoments({pair.x}, {pair.y}), params);
    for (const auto& [key, value] : params.values())
      if (!result.parametersUsed.contains(key)) result.parametersUsed.set(key, value);
  }
  const DerfChoice& used = attached(result.parametersUsed)->choice;
  // Matrices and pair of one dimension (a pair padded for a structured coupling, or matrices of a
  // padded pair): zeros on the missing coordinates leave the estimator unchanged.
  const Eigen::Index n = std::max(pair.x.size(), used.parameters.a.size());
  result.logVariance = derfLogVariance(paddedDerfParameters(used.parameters, n),
                                       paddedVector(pair.x, n), paddedVector(pair.y, n));
  return result;
}

ParameterSet DenseExponentialRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  const DerfMoments* moments = statistics.secondMoments();
  if (!moments) return {};  // gathered without them: each pair chooses its own
  return chosenParameters(*moments);
}

Outcome<TrialModel> DenseExponentialRf::trialModel(Coupling, const Eigen::VectorXd& x,
                                                   const Eigen::VectorXd& y,
                                                   const ParameterSet& resolved) const {
  const DerfChoice choice = matricesFor(resolved, x, y);
  if (choice.parameters.a.size() > x.size())
    throw InvalidParameter("x", "the DERF matrices are larger than the pair");
  const DerfParameters p = paddedDerfParameters(choice.parameters, x.size());
  const Eigen::ArrayXd oneMinus4A = 1.0 - 4.0 * p.a.array();
  if (!(oneMinus4A.minCoeff() > 0))
    return Outcome<TrialModel>::unavailable("DERF needs I - 4A positive definite");
  // f⁽¹⁾f⁽²⁾ = exp(2 log D + Σ 2a_l ω_l² + Σ b_l ω_l q_l - ½(|x|² + |y|² + |x̃|² + |ỹ|²)),
  // q = x̃ + ỹ.
  const Eigen::VectorXd xt = p.t1 * x, yt = p.t2 * y;
  const Eigen::ArrayXd linear = oneMinus4A.sqrt() * (xt + yt).array();
  TrialModel model;
  model.family = TrialFamily::Kernel;
  auto kernel = std::make_shared<DenseExponentialTrial>();
  kernel->quadratic.resize(static_cast<std::size_t>(x.size()));
  kernel->linear.resize(static_cast<std::size_t>(x.size()));
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    kernel->quadratic[static_cast<std::size_t>(l)] = 2 * p.a[l];
    kernel->linear[static_cast<std::size_t>(l)] = linear[l];
  }
  model.kernel = std::move(kernel);
  model.logConstant =
      0.5 * (-4.0 * p.a.array()).log1p().sum() -
      0.5 * (x.squaredNorm() + y.squaredNorm() + xt.squaredNorm() + yt.squaredNorm());
  // E Z⁴ needs every 1 - 16a_l > 0 (the optima have a_l <= 0).
  model.fourthMomentInfinite = !((1.0 - 16.0 * p.a.array()).minCoeff() > 0);
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> DenseExponentialRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                        TrialStream& stream) const {
  const auto choice = attachedChoice(spec.parameters);
  if (!choice)
    throw InvalidParameter("mechanism", info().name +
                                            " feature maps need the matrices chosen for the data "
                                            "(dataDrivenParameters or resolveParameters)");
  return drawDenseExponentialFeatureMap(choice->parameters, spec, stream);
}

Outcome<SameQueryCovariance> DenseExponentialRf::sameQueryCovariance(
    const ParameterSet& resolved) const {
  const auto choice = attachedChoice(resolved);
  if (!choice)
    return Outcome<SameQueryCovariance>::unavailable(
        info().name + ": the covariance needs the matrices chosen for the data");
  if (!((1.0 - 8.0 * choice->parameters.a.array()).minCoeff() > 0))
    return Outcome<SameQueryCovariance>::unavailable("I - 8A not positive: infinite variance");
  SameQueryCovariance covariance;
  covariance.form = SameQueryCovariance::Form::Dense;
  covariance.dense = std::make_shared<const DerfParameters>(choice->parameters);
  return covariance;
}

}  // namespace rfscope
