#pragma once
// Every experiment RFScope offers, in display order. Adding an experiment = one file + one line in
// the registry's .cpp.

#include <string_view>
#include <vector>

#include "core/experiments/experiment.h"

namespace rfscope {

const std::vector<const Experiment*>& allExperiments();
const Experiment* findExperiment(std::string_view id);  // nullptr if unknown

}  // namespace rfscope
