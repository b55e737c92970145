#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/atomic_file.h"
#include "core/io/json_export.h"
#include "core/io/table_csv.h"

namespace rfscope::cli {
namespace {

// Progress on stderr once a run has taken more than a second (a terminal user wants to know it is
// alive; short runs stay quiet).
class StderrProgress final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double fraction) override {
    std::lock_guard lock(mutex_);
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    if (elapsed < std::chrono::seconds(1)) return;
    std::fprintf(stderr, "\rrunning: %3.0f%%", 100.0 * fraction);
    printed_ = true;
  }
  void publishPartial(const Table&) override {}
  void finish() {
    if (printed_) std::fprintf(stderr, "\n");
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool printed_ = false;
};

}  // namespace

int runCommand(const std::vector<std::string>& args) {
  const Arguments arguments(args,
                            {"--set", "--preset", "--csv", "--json", "--png", "--pdf", "--svg",
                             "--width", "--height", "--dpi"},
                            {});
  if (arguments.positionals().size() > 1)
    throw UsageError("run takes one experiment id (see 'rfscope-cli list')");
  const Preset* preset = nullptr;
  if (arguments.has("--preset")) {
    preset = findPreset(arguments.value("--preset"));
    if (!preset) throw UsageError("unknown preset '" + arguments.value("--preset") + "'");
  }
  if (arguments.positionals().empty() && !preset)
    throw UsageError("run needs an experiment id or --preset (see 'rfscope-cli list')");
  const std::string id =
      arguments.positionals().empty() ? preset->experimentId : arguments.positionals().front();
  const Experiment* experiment = findExperiment(id);
  if (!experiment) throw UsageError("unknown experiment '" + id + "' (see 'rfscope-cli list')");
  if (preset && preset->experimentId != id)
    throw UsageError("preset '" + preset->id + "' is for experiment '" + preset->experimentId +
                     "'");
  const PlotOutputs plots = plotOutputs(arguments);

  const auto specs = experiment->parameters();
  ParameterSet params = ParameterSet::defaults(specs);
  if (preset) {
    std::vector<ParameterError> errors;
    params = presetParameters(*preset, *experiment, errors);
    if (!errors.empty()) throw UsageError(errors.front().message);
  }
  applyAssignments(arguments, "--set", specs, "experiment '" + id + "'", params);
  if (const auto errors = experiment->validate(params); !errors.empty()) {
    std::string message;
    for (const auto& e : errors)
      message += (message.empty() ? "" : "\n") + e.message;
    throw UsageError(message);
  }

  StderrProgress progress;
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = experiment->run(params, progress);
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& warning : result.warnings)
    std::cerr << "warning: " << warning << "\n";

  const std::string csv = tableToCsv(result.table, runMetadata(id, params));

  const std::string csvPath = arguments.value("--csv");
  const std::string jsonPath = arguments.value("--json");
  try {
    if (!csvPath.empty()) writeFileAtomically(csvPath, csv);
    if (!jsonPath.empty()) {
      nlohmann::json j{{"experiment", id},
                       {"version", RFSCOPE_VERSION},
                       {"parameters", parameterSetToJson(params)},
                       {"seconds", seconds},
                       {"warnings", result.warnings},
                       {"table", tableToJson(result.table)}};
      writeFileAtomically(jsonPath, j.dump(2) + "\n");
    }
    writePlots(result.table, plots);
  } catch (const std::exception& e) {
    std::cerr << "rfscope-cli: " << e.what() << "\n";
    return 1;
  }
  if (csvPath.empty() && jsonPath.empty() && plots.files.empty()) std::cout << csv;
  return 0;
}

}  // namespace rfscope::cli
