#pragma once
// The arguments of `rfscope-cli run`, parsed and validated — the experiment, its parameters (a
// preset's, then --set), the output files (an option --ID per format of core/io/output_format.h)
// — before anything runs or is written.

#include <string>
#include <vector>

#include "app/cli/plot_arguments.h"
#include "core/experiments/experiment.h"
#include "core/experiments/preset.h"

namespace rfscope::cli {

struct RunInvocation {
  std::string experimentId;
  const Experiment* experiment = nullptr;
  ParameterSet parameters;         // validated (experiment->validate) and complete
  std::vector<OutputFile> tables;  // table formats (--csv, --json, ...) in the registry's order
  PlotOutputs plots;
  const Preset* preset = nullptr;  // --preset
  bool check = false;              // --check: the preset's claim checked on the result
};

// Throws UsageError for anything wrong, with every validation problem of the parameters.
RunInvocation parseRunInvocation(const std::vector<std::string>& args);

// Writes the run's table files, each with its format's writer (atomically; throws
// std::runtime_error naming the file that cannot be written).
void writeTables(const std::vector<OutputFile>& files, const TableDocument& document);

}  // namespace rfscope::cli
