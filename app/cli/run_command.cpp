#include <algorithm>
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
#include "ui/remaining_time.h"

namespace rfscope::cli {
namespace {

// Progress on stderr once a run has taken more than a second (a terminal user wants to know it is
// alive; short runs stay quiet): "running: 45% · about 12 s left (elapsed 10 s)", at most a few
// times per second.
class StderrProgress final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double fraction) override {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    remaining_.update(fraction, elapsed);
    if (elapsed < 1 || (fraction < 1 && now - lastPrint_ < std::chrono::milliseconds(200))) return;
    lastPrint_ = now;
    const std::string line =
        "running: " + remaining_.describe() + " (elapsed " + ui::formatDuration(elapsed) + ")";
    // Spaces clear what a longer previous line left.
    std::fprintf(stderr, "\r%s%*s", line.c_str(),
                 static_cast<int>(std::max<std::size_t>(printedWidth_, line.size()) - line.size()),
                 "");
    printedWidth_ = std::max(printedWidth_, line.size());
  }
  void publishPartial(const Table&) override {}
  void finish() {
    if (printedWidth_ > 0) std::fprintf(stderr, "\n");
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point lastPrint_{};
  ui::RemainingTime remaining_;
  std::size_t printedWidth_ = 0;
};

}  // namespace

int runCommand(const std::vector<std::string>& args) {
  std::vector<std::string> valueOptions{"--set", "--preset", "--csv", "--json"};
  valueOptions.insert(valueOptions.end(), plotOptionNames().begin(), plotOptionNames().end());
  const Arguments arguments(args, valueOptions, {});
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
  PlotOutputs plots = plotOutputs(arguments);
  if (preset) {
    plots.view.xLog = preset->xLog;  // the axes that show the preset's claim
    plots.view.yLog = preset->yLog;
  }

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
