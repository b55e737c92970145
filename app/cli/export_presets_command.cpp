// `rfscope-cli export-presets DIR`: every preset (or those named) run at its defaults and written
// as DIR/ID.FORMAT in each format asked for — the whole gallery of figures for a paper, a slide
// deck or a regression check in one command.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "app/cli/process_group.h"
#include "app/cli/run_arguments.h"
#include "app/cli/stderr_progress.h"
#include "core/experiments/claim.h"
#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/output_format.h"

namespace rfscope::cli {
namespace {

struct ExportInvocation {
  std::filesystem::path directory;
  std::vector<const Preset*> presets;
  std::vector<const OutputFormat*> formats;  // table and figure formats, in the order given
  PlotOutputs plots;                         // sizes and text; files set per preset
  bool check = false;
};

std::vector<const OutputFormat*> parseFormats(const std::string& text) {
  std::vector<const OutputFormat*> formats;
  std::stringstream in(text);
  std::string id;
  while (std::getline(in, id, ',')) {
    const OutputFormat* format = findOutputFormat(id);
    if (!format) {
      std::string known;
      for (const OutputFormat* candidate : allOutputFormats())
        known += (known.empty() ? "" : ", ") + candidate->id;
      throw UsageError("--formats: unknown format '" + id + "' (known: " + known + ")");
    }
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
      formats.push_back(format);
  }
  if (formats.empty()) throw UsageError("--formats names no format");
  return formats;
}

ExportInvocation parseExportInvocation(const std::vector<std::string>& args) {
  std::vector<std::string> valueOptions{"--formats", "--preset"};
  for (const std::string& option : plotOptionNames())
    valueOptions.push_back(option);
  const Arguments arguments(args, valueOptions, {"--check"});
  if (arguments.positionals().size() != 1)
    throw UsageError("export-presets takes one folder to write into");
  ExportInvocation run;
  run.directory = arguments.positionals().front();
  for (const OutputFormat* format : outputFormats(OutputKind::Figure))
    if (arguments.has(outputOption(*format)))
      throw UsageError(outputOption(*format) + " names one file; export-presets writes FOLDER/ID." +
                       format->id + " per preset: use --formats");
  run.formats = parseFormats(arguments.value("--formats", "csv,pdf"));
  run.plots = plotOutputs(arguments);
  run.check = arguments.has("--check");
  for (const std::string& id : arguments.all("--preset")) {
    const Preset* preset = findPreset(id);
    if (!preset) throw UsageError("unknown preset '" + id + "' (see 'rfscope-cli list')");
    run.presets.push_back(preset);
  }
  if (run.presets.empty())
    for (const Preset& preset : allPresets())
      run.presets.push_back(&preset);
  return run;
}

// Runs one preset and writes its files; returns whether its claim holds (always true unchecked).
bool exportPreset(const ExportInvocation& run, const Preset& preset) {
  const Experiment* experiment = findExperiment(preset.experimentId);
  std::vector<ParameterError> errors;
  const ParameterSet parameters = presetParameters(preset, *experiment, errors);
  if (!errors.empty()) throw std::runtime_error(preset.id + ": " + errors.front().message);
  StderrProgress progress;
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = experiment->run(parameters, progress);
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.status != RunStatus::Completed)
    throw std::runtime_error(preset.id + ": the run did not complete");

  std::vector<OutputFile> tables;
  PlotOutputs plots = run.plots;
  plots.xLog = preset.xLog;  // the axes that show the preset's claim
  plots.yLog = preset.yLog;
  for (const OutputFormat* format : run.formats) {
    const OutputFile file{format, (run.directory / (preset.id + "." + format->extension)).string()};
    (format->kind == OutputKind::Table ? tables : plots.files).push_back(file);
  }
  writeTables(tables, {preset.experimentId, parameters, result.table, result.warnings, seconds});
  writePlots(result.table, plots);

  std::ostringstream line;
  line << preset.id << ": " << std::fixed << std::setprecision(2) << seconds << " s";
  bool holds = true;
  if (run.check) {
    const ClaimVerdict verdict = checkClaim(preset.claim, result.table);
    holds = verdict.holds;
    line << ", claim " << (holds ? "holds" : "does not hold");
    if (!holds) std::cout << "preset " << preset.id << "\n" << claimReport(preset.claim, verdict);
  }
  std::cerr << line.str() << "\n";
  return holds;
}

}  // namespace

int exportPresetsCommand(const std::vector<std::string>& args) {
  const ExportInvocation run = parseExportInvocation(args);
  if (processGroup().distributed())
    throw UsageError("export-presets runs in one process: run each preset with 'run' instead");
  std::error_code error;
  std::filesystem::create_directories(run.directory, error);
  if (error || !std::filesystem::is_directory(run.directory)) {
    std::cerr << "rfscope-cli: cannot create the folder '" << run.directory.string()
              << "': " << (error ? error.message() : "a file of that name exists") << "\n";
    return 1;
  }
  std::size_t failing = 0;
  for (std::size_t i = 0; i < run.presets.size(); ++i) {
    std::cerr << "[" << i + 1 << "/" << run.presets.size() << "] ";
    try {
      failing += exportPreset(run, *run.presets[i]) ? 0 : 1;
    } catch (const std::exception& e) {
      std::cerr << "\nrfscope-cli: " << e.what() << "\n";
      return 1;
    }
  }
  if (run.check)
    std::cout << run.presets.size() - failing << " of " << run.presets.size()
              << " presets' claims hold\n";
  return failing ? 4 : 0;
}

}  // namespace rfscope::cli
