#include "app/cli/run_arguments.h"

#include <filesystem>
#include <system_error>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/atomic_file.h"

namespace rfscope::cli {
namespace {

// The file a path names, with links resolved, for comparing two outputs: the canonical path of
// what exists of it (the file itself, or its folder), and the rest as written.
std::filesystem::path resolvedOutput(const std::string& path) {
  std::error_code error;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, error);
  return error ? std::filesystem::absolute(path, error) : resolved;
}

// Two output options naming one file would overwrite each other: refused before the run.
void refuseSharedOutputs(const RunInvocation& run) {
  std::vector<std::pair<std::string, std::string>> outputs;  // option, path
  for (const auto& files : {run.tables, run.plots.files})
    for (const OutputFile& file : files)
      outputs.emplace_back(outputOption(*file.format), file.path);
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      std::error_code error;
      const bool same = resolvedOutput(outputs[i].second) == resolvedOutput(outputs[j].second) ||
                        std::filesystem::equivalent(outputs[i].second, outputs[j].second, error);
      if (same)
        throw UsageError(outputs[i].first + " and " + outputs[j].first + " name the same file '" +
                         outputs[j].second + "': each output needs a file of its own");
    }
}

}  // namespace

RunInvocation parseRunInvocation(const std::vector<std::string>& args) {
  std::vector<std::string> valueOptions{"--set", "--preset"};
  for (const OutputFormat* format : outputFormats(OutputKind::Table))
    valueOptions.push_back(outputOption(*format));
  valueOptions.insert(valueOptions.end(), plotOptionNames().begin(), plotOptionNames().end());
  const Arguments arguments(args, valueOptions, {"--check"});
  if (arguments.positionals().size() > 1)
    throw UsageError("run takes one experiment id (see 'rfscope-cli list')");
  const Preset* preset = nullptr;
  if (arguments.has("--preset")) {
    preset = findPreset(arguments.value("--preset"));
    if (!preset) throw UsageError("unknown preset '" + arguments.value("--preset") + "'");
  }
  if (arguments.positionals().empty() && !preset)
    throw UsageError("run needs an experiment id or --preset (see 'rfscope-cli list')");
  RunInvocation run;
  run.preset = preset;
  run.check = arguments.has("--check");
  if (run.check && !preset)
    throw UsageError("--check checks a preset's claim: give --preset ID (see 'rfscope-cli list')");
  run.experimentId =
      arguments.positionals().empty() ? preset->experimentId : arguments.positionals().front();
  run.experiment = findExperiment(run.experimentId);
  if (!run.experiment)
    throw UsageError("unknown experiment '" + run.experimentId + "' (see 'rfscope-cli list')");
  if (preset && preset->experimentId != run.experimentId)
    throw UsageError("preset '" + preset->id + "' is for experiment '" + preset->experimentId +
                     "'");
  for (const OutputFormat* format : outputFormats(OutputKind::Table))
    if (const std::string path = outputPath(arguments, outputOption(*format)); !path.empty())
      run.tables.push_back({format, path});
  run.plots = plotOutputs(arguments);
  refuseSharedOutputs(run);
  if (preset) {
    run.plots.xLog = preset->xLog;  // the axes that show the preset's claim
    run.plots.yLog = preset->yLog;
  }

  const auto specs = run.experiment->parameters();
  run.parameters = ParameterSet::defaults(specs);
  if (preset) {
    std::vector<ParameterError> errors;
    run.parameters = presetParameters(*preset, *run.experiment, errors);
    if (!errors.empty()) throw UsageError(errors.front().message);
  }
  applyAssignments(arguments, "--set", specs, "experiment '" + run.experimentId + "'",
                   run.parameters);
  if (const auto errors = run.experiment->validate(run.parameters); !errors.empty()) {
    std::string message;
    for (const auto& e : errors)
      message += (message.empty() ? "" : "\n") + e.message;
    throw UsageError(message);
  }
  return run;
}

void writeTables(const std::vector<OutputFile>& files, const TableDocument& document) {
  for (const OutputFile& file : files)
    writeFileAtomically(file.path, file.format->tableWriter->write(document));
}

}  // namespace rfscope::cli
