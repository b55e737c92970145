#include "core/montecarlo/sampling_plan.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include "core/mechanisms/oprf.h"
#include "core/montecarlo/fast_trial.h"

namespace rfscope {
namespace {

// A parameter as a number (choices such as s = "+1"/"-1" too), or nullopt when absent.
std::optional<double> numberParameter(const ParameterSet& params, const std::string& key) {
  const ParameterValue* value = params.find(key);
  if (!value) return std::nullopt;
  if (const auto* integer = std::get_if<std::int64_t>(value)) return static_cast<double>(*integer);
  if (const auto* real = std::get_if<double>(value)) return *real;
  if (const auto* text = std::get_if<std::string>(value)) {
    if (*text == "+1" || *text == "1") return 1.0;
    if (*text == "-1") return -1.0;
  }
  return std::nullopt;
}

// The parameters the estimator runs with: the request's, completed by the values the mechanism
// resolves for this pair (automatic optima such as OPRF's A*, λ*, p*, GERF's optimum), so that
// Monte Carlo samples exactly the estimator whose closed form the analytic layer reports.
ParameterSet effectiveParameters(const MonteCarloRequest& request) {
  ParameterSet effective = request.parameters;
  const PairInput pair(request.x, request.y);
  const VarianceResult resolved = request.mechanism->logVariance(pair, request.parameters);
  for (const auto& [key, value] : resolved.parametersUsed.values())
    if (!effective.contains(key)) effective.set(key, value);
  for (const auto& spec : request.mechanism->parameters())
    if (!effective.contains(spec.key) && !spec.optional) effective.set(spec.key, spec.defaultValue);
  return effective;
}

bool setExponentialModel(const MonteCarloRequest& request, const ParameterSet& params,
                         SamplingPlan& plan, double& logConstant, std::string* error) {
  const std::string& id = request.mechanism->info().id;
  const double normsSquared = request.x.squaredNorm() + request.y.squaredNorm();
  ExponentialFeatureModel& model = plan.exponential;
  if (id == "trig") {
    model.diffIm = 1;  // Re e^{iωᵀ(x-y)} = cos ωᵀ(x - y)
    logConstant = 0;
    return true;
  }
  if (id == "pos" || id == "pos-hyp") {
    model.sumRe = 1;  // e^{ωᵀ(x+y) - |x|² - |y|²}
    model.antithetic = id == "pos-hyp";
    logConstant = -normsSquared;
    return true;
  }
  if (id != "gerf" && id != "oprf") {
    *error = "Monte Carlo does not offer mechanism '" + id + "' yet";
    return false;
  }
  // GERF (CRT Thm 3.1): f⁽¹⁾f⁽²⁾ = D² exp(2A|ω|² + B(ωᵀx + sωᵀy) + C(|x|² + |y|²)) with
  // B = √(s(1-4A)), C = -(s+1)/2, D² = (1-4A)^{d/2} (principal roots).
  std::complex<double> a(0, 0);
  double s = 1;
  if (id == "oprf") {
    const auto given = numberParameter(params, "A");
    a = given ? *given
              : -oprfRMinusOne(static_cast<int>(request.x.size()),
                               (request.x + request.y).squaredNorm()) /
                    8;
  } else {
    a = {numberParameter(params, "A").value_or(0.0),
         numberParameter(params, "A_imag").value_or(0.0)};
    s = numberParameter(params, "s").value_or(1.0) < 0 ? -1.0 : 1.0;
  }
  const std::complex<double> oneMinus4A = 1.0 - 4.0 * a;
  if (!(oneMinus4A.real() > 0)) {
    *error = "GERF needs Re(1 - 4A) > 0 (CRT Thm 3.1)";
    return false;
  }
  const std::complex<double> b = std::sqrt(s * oneMinus4A);
  const std::complex<double> constant =
      -(s + 1) / 2 * normsSquared +
      0.5 * static_cast<double>(request.x.size()) * std::log(oneMinus4A);
  model.alphaRe = 2 * a.real();
  model.alphaIm = 2 * a.imag();
  if (s > 0) {
    model.sumRe = b.real(), model.sumIm = b.imag();
  } else {
    model.diffRe = b.real(), model.diffIm = b.imag();
  }
  model.gammaIm = constant.imag();
  logConstant = constant.real();
  // The variance needs E e^{4 Re A |ω|²} < ∞, the fourth moment E e^{8 Re A |ω|²} < ∞.
  plan.fourthMomentInfinite = a.real() >= 1.0 / 16;
  return true;
}

bool setDiscreteModel(const MonteCarloRequest& request, const ParameterSet& params,
                      SamplingPlan& plan, double& logConstant, std::string* error) {
  const std::string& id = request.mechanism->info().id;
  const bool poisson = id == "pois" || id == "pois-plus";
  const bool plus = id == "pois-plus" || id == "geom-plus";
  Eigen::VectorXd x = request.x, y = request.y;
  if (plus) {  // CRT §3.2.3: shift both by c_l = min(x_l, y_l) - ε so that all entries are > 0
    const double epsilon = numberParameter(params, "epsilon").value_or(0.1);
    for (Eigen::Index l = 0; l < x.size(); ++l) {
      const double c = std::min(x[l], y[l]) - epsilon;
      x[l] -= c;
      y[l] -= c;
    }
  }
  const int d = static_cast<int>(x.size());
  DiscreteFeatureModel& model = plan.discrete;
  model.distribution = poisson ? DiscreteDistribution::Poisson : DiscreteDistribution::Geometric;
  model.dimension = d;
  double parameter = 0;
  if (poisson) {
    const double s = x.cwiseProduct(y).squaredNorm();
    parameter = numberParameter(params, "lambda").value_or(std::sqrt(s / d));
    if (!(parameter > 0)) {
      *error = "PoisRF needs λ > 0 (x_l y_l = 0 for every l gives λ* = 0)";
      return false;
    }
  } else {
    parameter = numberParameter(params, "p").value_or(0);
    if (!(parameter > 0 && parameter < 1)) {
      *error = "GeomRF needs 0 < p < 1";
      return false;
    }
  }
  model.parameter = parameter;
  const double logScale = poisson ? std::log(parameter) : std::log1p(-parameter);
  plan.discreteWeights.resize(d);
  plan.discreteSigns.resize(d);
  for (int l = 0; l < d; ++l) {
    const double product = x[l] * y[l];
    plan.discreteSigns[l] = product > 0 ? 1 : (product < 0 ? -1 : 0);
    plan.discreteWeights[l] = product == 0 ? -std::numeric_limits<double>::infinity()
                                           : std::log(std::fabs(product)) - logScale;
  }
  model.weights = plan.discreteWeights.data();
  model.signs = plan.discreteSigns.data();
  const double normsSquared = x.squaredNorm() + y.squaredNorm();
  logConstant = (poisson ? parameter * d : -d * std::log(parameter)) - 0.5 * normsSquared;
  return true;
}

// The fast path's trial of a plan: every continuous family on the fast path (nullopt otherwise).
std::optional<FastTrialPlan> fastTrialPlan(const SamplingPlan& plan) {
  if (plan.path != SamplingPath::Fast || plan.family == FeatureFamily::Discrete)
    return std::nullopt;
  FastTrialPlan fast;
  FastTrialSpec& spec = fast.hybrid.base;
  spec.model = plan.exponential;
  spec.dimension = plan.dimension;
  spec.sum1 = plan.frame.sum1, spec.sum2 = plan.frame.sum2;
  spec.diff1 = plan.frame.diff1, spec.diff2 = plan.frame.diff2;
  spec.features = plan.features;
  spec.seed = plan.seed;
  spec.logOffset = plan.logOffset;
  fast.geometry =
      isOrthogonalBlock(plan.coupling) ? BlockGeometry::Orthogonal : BlockGeometry::Simplex;
  if (plan.family == FeatureFamily::Hybrid) {
    fast.kind = FastTrialKind::Hybrid;
    fast.hybrid.posLogConstant = plan.hybridPosLogConstant;
    fast.hybrid.taus = plan.hybridTaus;
    fast.hybrid.shared = plan.hybridShared;
    fast.hybrid.coefficient = plan.hybridCoefficient;
    fast.hybrid.tauDifferenceScale = plan.difference.norm() / plan.hybridBandwidth;
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
  TrialStream rng(plan.seed, trial, zigguratTables());
  EnvelopeSum total;
  forEachFrequency(plan.coupling, plan.dimension, plan.features, plan.simplexPlusIterations, rng,
                   s.frequencies, [&](const auto& omega) {
                     FeatureProjection w;
                     w.onSum = omega.dot(plan.sum);
                     w.onDifference = omega.dot(plan.difference);
                     w.normSquared = omega.squaredNorm();
                     double envelope = 0, factor = 0;
                     exponentialFeatureTerm(plan.exponential, w, envelope, factor);
                     total.add(envelope, factor);
                   });
  return total.result(plan.logOffset);
}

SignedLog fullHybridTrial(const SamplingPlan& plan, std::uint64_t trial) {
  TrialStream rng(plan.seed, trial, zigguratTables());
  const int d = plan.dimension;
  const auto gaussianDots = [&](double& onSum, double& onDifference) {
    onSum = onDifference = 0;
    for (int i = 0; i < d; ++i) {
      const double g = rng.normal();
      onSum += g * plan.sum[i];
      onDifference += g * plan.difference[i];
    }
  };
  EnvelopeSum total;
  for (std::int64_t j = 0; j < plan.features; ++j) {
    double lambda = 0;
    for (std::int64_t k = 0; k < plan.hybridTaus; ++k) {
      double onSum = 0, onDifference = 0;
      gaussianDots(onSum, onDifference);
      if (plan.hybridCoefficient == HybridCoefficient::Gaussian)
        lambda += 1.0 - std::cos(onDifference / plan.hybridBandwidth);
      else if ((onSum + onDifference > 0) != (onSum - onDifference > 0))
        lambda += 1.0;
    }
    lambda /= static_cast<double>(plan.hybridTaus);
    double onSum = 0, onDifference = 0;
    gaussianDots(onSum, onDifference);
    if (!plan.hybridShared) {
      double unused = 0;
      gaussianDots(unused, onDifference);
    }
    const double magnitude = std::fabs(onSum);
    total.add(plan.hybridPosLogConstant + magnitude,
              lambda * 0.5 * (1.0 + std::exp(-2.0 * magnitude)));
    total.add(0.0, (1.0 - lambda) * std::cos(onDifference));
  }
  return total.result(plan.logOffset);
}

SignedLog discreteTrial(const SamplingPlan& plan, std::uint64_t trial) {
  TrialStream rng(plan.seed, trial, zigguratTables());
  EnvelopeSum total;
  for (std::int64_t j = 0; j < plan.features; ++j) {
    double envelope = 0, factor = 0;
    discreteFeatureTerm(plan.discrete, rng, envelope, factor);
    total.add(envelope, factor);
  }
  return total.result(plan.logOffset);
}

}  // namespace

std::optional<SamplingPlan> makeSamplingPlan(const MonteCarloRequest& original,
                                             std::string* error) {
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
  std::string ignored;
  if (!error) error = &ignored;
  if (!request.mechanism) return *error = "no mechanism given", std::nullopt;
  if (request.x.size() != request.y.size() || request.x.size() < 1)
    return *error = "x and y must be non-empty and of the same dimension", std::nullopt;
  if (request.features < 1)
    return *error = "the number of features must be at least 1", std::nullopt;
  if (request.trials < 1 || static_cast<std::uint64_t>(request.trials) >= kMaxTrials)
    return *error = "the number of trials must be between 1 and 2^48", std::nullopt;
  SamplingPlan plan;
  plan.coupling = request.coupling;
  plan.path = request.path;
  plan.dimension = static_cast<int>(request.x.size());
  plan.features = request.features;
  plan.seed = request.seed;
  plan.simplexPlusIterations = request.simplexPlusIterations;
  if (isSimplexBlock(plan.coupling) && plan.dimension < 2)
    return *error = "simplex couplings need d >= 2", std::nullopt;
  if (plan.coupling == Coupling::SimplexPlus) plan.path = SamplingPath::Full;  // no fast form

  const std::string& id = request.mechanism->info().id;
  const bool discrete = id == "pois" || id == "geom" || id == "pois-plus" || id == "geom-plus";
  const bool hybrid = id == "hybrid-angular" || id == "hybrid-gaussian";
  const ParameterSet params = effectiveParameters(request);
  double logConstant = 0;
  if (discrete) {
    if (plan.coupling != Coupling::Iid)
      return *error = "discrete ω (" + id + ") are sampled i.i.d. only", std::nullopt;
    plan.family = FeatureFamily::Discrete;
    if (!setDiscreteModel(request, params, plan, logConstant, error)) return std::nullopt;
  } else if (hybrid) {
    if (plan.coupling != Coupling::Iid)
      return *error = "the hybrid estimator is sampled with i.i.d. ω only", std::nullopt;
    plan.family = FeatureFamily::Hybrid;
    plan.hybridTaus = static_cast<std::int64_t>(numberParameter(params, "n").value_or(8));
    const ParameterValue* shared = params.find("shared");
    plan.hybridShared = shared && std::holds_alternative<bool>(*shared) && std::get<bool>(*shared);
    plan.hybridPosLogConstant = -(request.x.squaredNorm() + request.y.squaredNorm());
    if (plan.hybridTaus < 1) return *error = "the hybrid estimator needs n >= 1", std::nullopt;
    if (id == "hybrid-gaussian") {
      plan.hybridCoefficient = HybridCoefficient::Gaussian;
      plan.hybridBandwidth = numberParameter(params, "bandwidth").value_or(1.0);
      if (!(plan.hybridBandwidth > 0))
        return *error = "the Gaussian hybrid needs a bandwidth b > 0", std::nullopt;
    }
  } else {
    plan.family = FeatureFamily::Exponential;
    if (!setExponentialModel(request, params, plan, logConstant, error)) return std::nullopt;
  }

  plan.parametersUsed = params;
  FrameAxis first = FrameAxis::Longer;
  if (plan.family == FeatureFamily::Exponential) {
    if (!plan.exponential.needsDifference()) first = FrameAxis::Sum;
    if (!plan.exponential.needsSum()) first = FrameAxis::Difference;
  }
  plan.frame =
      PairFrame::fromVectors(request.x, request.y, &plan.frameAxis1, &plan.frameAxis2, first);
  plan.sum = request.x + request.y;
  plan.difference = request.x - request.y;
  const PairGeometry geometry = PairGeometry::fromVectors(request.x, request.y);
  plan.logKernelValue = logKernelValue(request.kernel, geometry);
  // A softmax estimate is the Gaussian one times e^{(|x|² + |y|²)/2}.
  const double kernelScale = 0.5 * logVarianceScale(request.kernel, geometry);
  plan.logOffset = logConstant + kernelScale - std::log(static_cast<double>(request.features));
  plan.fast = fastTrialPlan(plan);
  return plan;
}

SignedLog sampleTrial(const SamplingPlan& plan, std::uint64_t trial, TrialScratch& scratch) {
  if (plan.fast) {
    scratch.frame.resize(static_cast<std::size_t>(fastTrialScratchSize(*plan.fast)));
    return runFastTrial(*plan.fast, plan.frameAxis1.data(), plan.frameAxis2.data(), trial,
                        zigguratTables(), scratch.frame.data());
  }
  if (plan.family == FeatureFamily::Discrete) return discreteTrial(plan, trial);
  if (plan.family == FeatureFamily::Hybrid) return fullHybridTrial(plan, trial);
  return fullExponentialTrial(plan, trial, scratch);
}

}  // namespace rfscope
