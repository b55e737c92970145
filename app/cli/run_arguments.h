#pragma once
// The arguments of `rfscope-cli run`, parsed and validated — the experiment, its parameters (a
// preset's, then --set), the output files — before anything runs or is written.

#include <string>
#include <vector>

#include "app/cli/plot_arguments.h"
#include "core/experiments/experiment.h"

namespace rfscope::cli {

struct RunInvocation {
  std::string experimentId;
  const Experiment* experiment = nullptr;
  ParameterSet parameters;  // validated (experiment->validate) and complete
  std::string csvPath;      // "" when not asked for
  std::string jsonPath;
  PlotOutputs plots;
};

// Throws UsageError for anything wrong, with every validation problem of the parameters.
RunInvocation parseRunInvocation(const std::vector<std::string>& args);

}  // namespace rfscope::cli
