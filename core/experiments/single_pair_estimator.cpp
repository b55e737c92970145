#include "core/experiments/single_pair_estimator.h"

#include "core/couplings/coupling.h"
#include "core/data/regime.h"
#include "core/experiments/common_parameters.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {

std::vector<ParameterSpec> singlePairEstimatorParameters(std::int64_t defaultTrials) {
  std::vector<ParameterSpec> specs{dimensionParameter(64)};
  for (auto& spec : regimeParameters())
    specs.push_back(spec);
  auto sigma = realParameter("sigma", "σ", 0.1, 1e-3, 10, "scale of the pair", true);
  auto pair = integerParameter("pair", "Pair", 0, 0, 1000000, "which pair of the regime");
  sigma.group = pair.group = "Data";
  auto mechanism = choiceParameter("mechanism", "Mechanism", mechanismChoices(), "pos",
                                   "random-feature mechanism (its parameters at their defaults)");
  auto coupling =
      choiceParameter("coupling", "Coupling", couplingChoices(), "iid", "how ω's are drawn");
  auto features =
      integerParameter("features", "Features M", 1, 1, 100000, "random features per estimate");
  mechanism.group = coupling.group = features.group = "Estimator";
  auto trials = integerParameter("trials", "Trials", defaultTrials, 64, 1000000000,
                                 "Monte Carlo estimates of the kernel");
  trials.group = "Sampling";
  specs.insert(specs.end(), {sigma, pair, mechanism, kernelParameter(), coupling, features, trials,
                             seedParameter()});
  return specs;
}

std::vector<ParameterError> singlePairEstimatorErrors(const ParameterSet& params) {
  auto errors = regimeErrors(params, static_cast<int>(params.integer("d")));
  if (!errors.empty()) return errors;
  if (const auto plan = makeSamplingPlan(singlePairRequest(params)); !plan)
    return {{"coupling", "parameters 'mechanism' and 'coupling': " + plan.reason()}};
  return {};
}

MonteCarloRequest singlePairRequest(const ParameterSet& params) {
  const int d = static_cast<int>(params.integer("d"));
  MonteCarloRequest request;
  request.mechanism = findMechanism(params.choice("mechanism"));
  request.kernel = *kernelFromId(params.choice("kernel"));
  request.coupling = parseCoupling(params.choice("coupling"));
  request.features = params.integer("features");
  request.trials = params.integer("trials");
  request.seed = static_cast<std::uint64_t>(params.integer("seed"));
  prepareRegime(params, d)->sampleBasePair(
      request.seed, static_cast<std::uint64_t>(params.integer("pair")), request.x, request.y);
  request.x *= params.real("sigma");
  request.y *= params.real("sigma");
  return request;
}

}  // namespace rfscope
