#pragma once
// Parameter declarations shared by several experiments, with choices taken from the registries.

#include <vector>

#include "core/params/parameter_spec.h"

namespace rfscope {

std::vector<ParameterChoice> mechanismChoices();
std::vector<ParameterChoice> regimeChoices();
std::vector<ParameterChoice> kernelChoices();

ParameterSpec dimensionParameter(std::int64_t defaultValue = 64);
ParameterSpec seedParameter();
ParameterSpec kernelParameter();
ParameterSpec regimeParameter();

// The σ grid of "... vs σ" experiments: sigma-min, sigma-max, sigma-steps, sigma-spacing.
std::vector<ParameterSpec> sigmaGridParameters(double minimum, double maximum, std::int64_t steps);
std::vector<double> sigmaGrid(double minimum, double maximum, std::int64_t steps, bool logSpacing);

}  // namespace rfscope
