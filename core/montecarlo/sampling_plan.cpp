#include "core/montecarlo/sampling_plan.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <string>

#include "core/mechanisms/trial_kernel.h"
#include "core/montecarlo/fast_trial.h"
#include "core/montecarlo/leaf_result.h"
#include "core/params/invalid_parameter.h"

namespace rfscope {
namespace {

// The fast path's trial of a plan: every continuous family on the fast path (nullopt otherwise).
std::optional<FastTrialPlan> fastTrialPlan(const SamplingPlan& plan) {
  if (plan.path != SamplingPath::Fast || plan.model.family == TrialFamily::Discrete ||
      plan.model.family == TrialFamily::Kernel)
    return std::nullopt;
  FastTrialPlan fast;
  FastTrialSpec& spec = fast.hybrid.base;
  spec.model = plan.model.exponential;
  spec.dimension = plan.dimension;
  spec.sum1 = plan.frame.sum1, spec.sum2 = plan.frame.sum2;
  spec.diff1 = plan.frame.diff1, spec.diff2 = plan.frame.diff2;
  spec.features = plan.features;
  spec.seed = plan.seed;
  spec.logOffset = plan.logOffset;
  fast.geometry = hasFixedNorms(plan.coupling)       ? BlockGeometry::OrthogonalFixedNorm
                  : isOrthogonalBlock(plan.coupling) ? BlockGeometry::Orthogonal
                                                     : BlockGeometry::Simplex;
  if (plan.model.family == TrialFamily::Hybrid) {
    const HybridTrialModel& hybrid = plan.model.hybrid;
    fast.kind = FastTrialKind::Hybrid;
    fast.hybrid.posLogConstant = hybrid.posLogConstant;
    fast.hybrid.taus = hybrid.taus;
    fast.hybrid.shared = hybrid.shared;
    fast.hybrid.coefficient = hybrid.coefficient;
    fast.hybrid.tauDifferenceScale = plan.difference.norm() / hybrid.bandwidth;
  } else if (plan.coupling == Coupling::Iid) {
    fast.kind = FastTrialKind::Iid;
  } else if (isStructured(plan.coupling)) {
    fast.kind = FastTrialKind::Structured;
  } else {
    fast.kind = FastTrialKind::Block;
  }
  return fast;
}

SignedLog fullExponentialTrial(const SamplingPlan& plan, std::uint64_t trial, TrialScratch& s) {
  TrialStream rng(plan.seed, trial);
  EnvelopeSum total;
  forEachFrequency(plan.coupling, plan.dimension, plan.features, plan.simplexPlusIterations, rng,
                   s.frequencies, [&](const auto& omega) {
                     FeatureProjection w;
                     w.onSum = omega.dot(plan.sum);
                     w.onDifference = omega.dot(plan.difference);
                     w.normSquared = omega.squaredNorm();
                     // The phase after its ω, as the random-phase feature maps draw it.
                     if (plan.model.exponential.randomPhase) w.phase = kTwoPi * rng.uniform();
                     double envelope = 0, factor = 0;
                     exponentialFeatureTerm(plan.model.exponential, w, envelope, factor);
                     total.add(envelope, factor);
                   });
  return total.result(plan.logOffset);
}

// A mechanism's own trial kernel (trial_kernel.h), on the trial's stream.
SignedLog kernelTrial(const SamplingPlan& plan, std::uint64_t trial, TrialScratch& s) {
  TrialStream rng(plan.seed, trial);
  const TrialInputs inputs{
      plan.coupling, plan.dimension,   plan.features, plan.simplexPlusIterations,
      &plan.sum,     &plan.difference, &s.frequencies};
  EnvelopeSum total;
  plan.model.kernel->addFeatureProducts(inputs, rng, total);
  return total.result(plan.logOffset);
}

SignedLog fullHybridTrial(const SamplingPlan& plan, std::uint64_t trial) {
  const HybridTrialModel& hybrid = plan.model.hybrid;
  TrialStream rng(plan.seed, trial);
  const int d = plan.dimension;
  PairedNormals<TrialStream> normals(rng);
  const auto gaussianDots = [&](double& onSum, double& onDifference) {
    onSum = onDifference = 0;
    for (int i = 0; i < d; ++i) {
      const double g = normals.next();
      onSum += g * plan.sum[i];
      onDifference += g * plan.difference[i];
    }
  };
  EnvelopeSum total;
  for (std::int64_t j = 0; j < plan.features; ++j) {
    double lambda = 0;
    for (std::int64_t k = 0; k < hybrid.taus; ++k) {
      double onSum = 0, onDifference = 0;
      gaussianDots(onSum, onDifference);
      if (hybrid.coefficient == HybridCoefficient::Gaussian)
        lambda += 1.0 - std::cos(onDifference / hybrid.bandwidth);
      else if ((onSum + onDifference > 0) != (onSum - onDifference > 0))
        lambda += 1.0;
    }
    lambda /= static_cast<double>(hybrid.taus);
    double onSum = 0, onDifference = 0;
    gaussianDots(onSum, onDifference);
    if (!hybrid.shared) {
      double unused = 0;
      gaussianDots(unused, onDifference);
    }
    const double magnitude = std::fabs(onSum);
    total.add(hybrid.posLogConstant + magnitude, lambda * 0.5 * (1.0 + std::exp(-2.0 * magnitude)));
    total.add(0.0, (1.0 - lambda) * std::cos(onDifference));
  }
  return total.result(plan.logOffset);
}

SignedLog discreteTrial(const SamplingPlan& plan, std::uint64_t trial) {
  const DiscreteTrialModel& discrete = plan.model.discrete;
  const DiscreteFeatureModel model{discrete.distribution, discrete.parameter, plan.dimension,
                                   discrete.weights.data(), discrete.signs.data()};
  TrialStream rng(plan.seed, trial);
  EnvelopeSum total;
  for (std::int64_t j = 0; j < plan.features; ++j) {
    double envelope = 0, factor = 0;
    discreteFeatureTerm(model, rng, envelope, factor);
    total.add(envelope, factor);
  }
  return total.result(plan.logOffset);
}

}  // namespace

Outcome<SamplingPlan> makeSamplingPlan(const MonteCarloRequest& original) {
  // Structured couplings work in R^n, n = d padded to a power of two with zeros (the kernel and
  // every norm are unchanged; the estimator's constants use n).
  MonteCarloRequest padded;
  if (isStructured(original.coupling) && original.x.size() == original.y.size() &&
      original.x.size() >= 1) {
    padded = original;
    const Eigen::Index n =
        frequencyDimension(original.coupling, static_cast<int>(original.x.size()));
    padded.x = Eigen::VectorXd::Zero(n);
    padded.y = Eigen::VectorXd::Zero(n);
    padded.x.head(original.x.size()) = original.x;
    padded.y.head(original.y.size()) = original.y;
  }
  const MonteCarloRequest& request = padded.x.size() > 0 ? padded : original;
  using Result = Outcome<SamplingPlan>;
  assert(request.mechanism);
  if (request.x.size() != request.y.size() || request.x.size() < 1)
    throw InvalidParameter("x", "x and y must be non-empty and of the same dimension");
  if (request.features < 1)
    throw InvalidParameter("features", "the number of features must be at least 1");
  if (request.trials < 1 || static_cast<std::uint64_t>(request.trials) >= kMaxTrials)
    throw InvalidParameter("trials", "the number of trials must be between 1 and 2^48");
  SamplingPlan plan;
  plan.coupling = request.coupling;
  plan.path = request.path;
  plan.dimension = static_cast<int>(request.x.size());
  plan.features = request.features;
  plan.seed = request.seed;
  plan.simplexPlusIterations = request.simplexPlusIterations;
  if (const std::string problem = couplingDimensionProblem(plan.coupling, plan.dimension);
      !problem.empty())
    return Result::unavailable(problem);
  // No fast form: SimRF+ rearranges whole blocks; quasi-Monte Carlo points are not rotation
  // invariant, so no pair frame captures them; the fast samplers draw χ_d norms independently,
  // not orf-norm-coupled's antithetic pairs.
  if (plan.coupling == Coupling::SimplexPlus || isQuasiMonteCarlo(plan.coupling) ||
      plan.coupling == Coupling::OrthogonalNormCoupled)
    plan.path = SamplingPath::Full;

  const ParameterSet params =
      resolveParameters(*request.mechanism, PairInput(request.x, request.y), request.parameters);
  Outcome<TrialModel> model =
      request.mechanism->trialModel(plan.coupling, request.x, request.y, params);
  if (!model) return Result::unavailable(model.reason());
  plan.model = std::move(*model);
  if (plan.model.family == TrialFamily::Kernel) plan.path = SamplingPath::Full;
  if (plan.model.family == TrialFamily::Kernel && !plan.model.kernel)
    return Result::unavailable("mechanism '" + request.mechanism->info().id +
                               "' named its own trial kernel but gave none");
  plan.fourthMomentInfinite = plan.model.fourthMomentInfinite;
  plan.parametersUsed = params;
  FrameAxis first = FrameAxis::Longer;
  if (plan.model.family == TrialFamily::Exponential) {
    if (!plan.model.exponential.needsDifference()) first = FrameAxis::Sum;
    if (!plan.model.exponential.needsSum()) first = FrameAxis::Difference;
  }
  plan.frame =
      PairFrame::fromVectors(request.x, request.y, &plan.frameAxis1, &plan.frameAxis2, first);
  plan.sum = request.x + request.y;
  plan.difference = request.x - request.y;
  const PairGeometry geometry = PairGeometry::fromVectors(request.x, request.y);
  plan.logKernelValue = logKernelValue(request.kernel, geometry);
  // A softmax estimate is the Gaussian one times e^{(|x|² + |y|²)/2}.
  const double kernelScale = 0.5 * logVarianceScale(request.kernel, geometry);
  plan.logOffset =
      plan.model.logConstant + kernelScale - std::log(static_cast<double>(request.features));
  plan.fast = fastTrialPlan(plan);
  plan.exactTail = exactTail(plan, kBatchCount);
  return plan;
}

SignedLog sampleTrial(const SamplingPlan& plan, std::uint64_t trial, TrialScratch& scratch) {
  if (plan.fast) {
    scratch.frame.resize(static_cast<std::size_t>(fastTrialScratchSize(*plan.fast)));
    return runFastTrial(*plan.fast, plan.frameAxis1.data(), plan.frameAxis2.data(), trial,
                        scratch.frame.data());
  }
  if (plan.model.family == TrialFamily::Discrete) return discreteTrial(plan, trial);
  if (plan.model.family == TrialFamily::Hybrid) return fullHybridTrial(plan, trial);
  if (plan.model.family == TrialFamily::Kernel) return kernelTrial(plan, trial, scratch);
  return fullExponentialTrial(plan, trial, scratch);
}

}  // namespace rfscope
