#pragma once
// Parameter declarations shared by several experiments, with choices taken from the registries.

#include <memory>
#include <vector>

#include "core/params/parameter_set.h"
#include "core/params/parameter_spec.h"

namespace rfscope {

std::vector<ParameterChoice> mechanismChoices();
std::vector<ParameterChoice> regimeChoices();
std::vector<ParameterChoice> kernelChoices();

ParameterSpec dimensionParameter(std::int64_t defaultValue = 64);
ParameterSpec seedParameter();
ParameterSpec kernelParameter();
ParameterSpec regimeParameter();
// The regime choice followed by every regime's own parameters (file paths), all in group "Data".
std::vector<ParameterSpec> regimeParameters();

class PairSampler;
class Regime;

// The chosen regime as a value: the regime ("regime", default normal) and the values of its own
// parameters (its files), none of the experiment's others.
struct RegimeSettings {
  const Regime* chosen = nullptr;
  ParameterSet parameters;  // the keys of chosen->parameters() that the set holds
};
RegimeSettings parseRegime(const ParameterSet& params);

// For crossValidate: the chosen regime ("regime", default normal) cannot give dimension `dimension`
// or its data cannot be loaded; each error names the parameter to fix (d or a file parameter).
std::vector<ParameterError> regimeErrors(const ParameterSet& params, int dimension);
// The regime, prepared (data loaded once and cached across runs). Throws DataError.
std::shared_ptr<const PairSampler> prepareRegime(const RegimeSettings& regime, int dimension);
// The same for the regime a parameter set chooses (parseRegime, then prepare).
std::shared_ptr<const PairSampler> prepareRegime(const ParameterSet& params, int dimension);

// The σ grid of "... vs σ" experiments: sigma-min, sigma-max, sigma-steps, sigma-spacing.
std::vector<ParameterSpec> sigmaGridParameters(double minimum, double maximum, std::int64_t steps);
std::vector<double> sigmaGrid(double minimum, double maximum, std::int64_t steps, bool logSpacing);

}  // namespace rfscope
