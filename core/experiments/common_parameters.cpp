#include "core/experiments/common_parameters.h"

#include <cmath>

#include "core/data/data_error.h"
#include "core/data/input_limits.h"
#include "core/data/regime.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {

std::vector<ParameterChoice> mechanismChoices() {
  std::vector<ParameterChoice> choices;
  for (const Mechanism* m : allMechanisms())
    choices.push_back({m->info().id, m->info().name});
  return choices;
}

std::vector<ParameterChoice> regimeChoices() {
  std::vector<ParameterChoice> choices;
  for (const Regime* r : allRegimes())
    choices.push_back({r->info().id, r->info().name});
  return choices;
}

std::vector<ParameterChoice> kernelChoices() {
  return {{"gaussian", "Gaussian exp(-|x-y|²/2)"}, {"softmax", "softmax exp(xᵀy)"}};
}

ParameterSpec dimensionParameter(std::int64_t defaultValue) {
  auto spec = integerParameter("d", "Dimension d", defaultValue, 1, kMaxExperimentDimension,
                               "dimension of x and y");
  spec.group = "Data";
  return spec;
}

ParameterSpec seedParameter() {
  auto spec = integerParameter("seed", "Seed", 1, 0, 2147483647,
                               "random seed: the same seed gives the same numbers");
  spec.group = "Sampling";
  return spec;
}

ParameterSpec kernelParameter() {
  auto spec = choiceParameter("kernel", "Kernel", kernelChoices(), "gaussian", "kernel estimated");
  spec.group = "Estimator";
  return spec;
}

ParameterSpec regimeParameter() {
  auto spec = choiceParameter("regime", "Regime", regimeChoices(), "normal",
                              "distribution the pairs (x, y) are drawn from");
  spec.group = "Data";
  return spec;
}

std::vector<ParameterSpec> regimeParameters() {
  std::vector<ParameterSpec> specs{regimeParameter()};
  for (const Regime* regime : allRegimes())
    for (auto& spec : regime->parameters()) {
      spec.group = "Data";
      spec.visibleWhenKey = "regime";
      spec.visibleWhenValues = {regime->info().id};
      specs.push_back(std::move(spec));
    }
  return specs;
}

RegimeSettings parseRegime(const ParameterSet& params) {
  RegimeSettings regime;
  regime.chosen = params.contains("regime") ? findRegime(params.choice("regime")) : nullptr;
  if (!regime.chosen) regime.chosen = findRegime("normal");
  for (const ParameterSpec& spec : regime.chosen->parameters())
    if (const ParameterValue* value = params.find(spec.key))
      regime.parameters.set(spec.key, *value);
  return regime;
}

std::vector<ParameterError> regimeErrors(const ParameterSet& params, int dimension) {
  const RegimeSettings regime = parseRegime(params);
  if (std::string error = regime.chosen->dimensionError(dimension); !error.empty())
    return {{"d", "parameter 'd': " + error}};
  try {
    prepareRegime(regime, dimension);
  } catch (const DataError& e) {
    const std::string& key = e.parameter();
    return {{key, (key.empty() ? std::string() : "parameter '" + key + "': ") + e.what()}};
  }
  return {};
}

std::shared_ptr<const PairSampler> prepareRegime(const RegimeSettings& regime, int dimension) {
  return regime.chosen->prepare(dimension, regime.parameters);
}

std::shared_ptr<const PairSampler> prepareRegime(const ParameterSet& params, int dimension) {
  return prepareRegime(parseRegime(params), dimension);
}

std::vector<ParameterSpec> sigmaGridParameters(double minimum, double maximum, std::int64_t steps) {
  auto low =
      realParameter("sigma-min", "σ from", minimum, 1e-3, 10, "smallest σ of the grid", true);
  auto high = realParameter("sigma-max", "σ to", maximum, 1e-3, 10, "largest σ of the grid", true);
  auto count = integerParameter("sigma-steps", "σ steps", steps, 2, 2000, "number of σ values");
  auto spacing =
      choiceParameter("sigma-spacing", "σ spacing", {{"linear", "linear"}, {"log", "logarithmic"}},
                      "linear", "spacing of the σ grid");
  for (auto* spec : {&low, &high, &count, &spacing})
    spec->group = "Data";
  return {low, high, count, spacing};
}

std::vector<double> sigmaGrid(double minimum, double maximum, std::int64_t steps, bool logSpacing) {
  std::vector<double> grid(static_cast<std::size_t>(steps));
  for (std::int64_t i = 0; i < steps; ++i) {
    const double t = steps == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(steps - 1);
    grid[static_cast<std::size_t>(i)] =
        logSpacing ? std::exp(std::log(minimum) + t * (std::log(maximum) - std::log(minimum)))
                   : minimum + t * (maximum - minimum);
  }
  grid.back() = maximum;
  return grid;
}

}  // namespace rfscope
