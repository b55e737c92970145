#include <chrono>
#include <iostream>
#include <optional>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "app/cli/process_group.h"
#include "app/cli/run_arguments.h"
#include "app/cli/stderr_progress.h"
#include "core/io/atomic_file.h"
#include "core/io/json_export.h"
#include "core/io/table_csv.h"

namespace rfscope::cli {

int runCommand(const std::vector<std::string>& args) {
  const ProcessGroup& group = processGroup();
  std::optional<RunInvocation> parsed;
  std::exception_ptr failure;
  try {
    parsed = parseRunInvocation(args);
  } catch (...) {
    failure = std::current_exception();
  }
  group.agree(failure);  // bad input: every rank stops here, rank 0 says why
  const RunInvocation& run = *parsed;
  if (group.distributed())
    group.agreeOnWork(run.experimentId + "\n" + parameterSetToJson(run.parameters).dump());

  StderrProgress progress;
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = run.experiment->run(run.parameters, progress);
  if (!group.isRoot()) return 0;  // its rows went to rank 0, which writes the outputs
  group.settle();                 // every rank's rows are in
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& warning : result.warnings)
    std::cerr << "warning: " << warning << "\n";

  const std::string csv = tableToCsv(result.table, runMetadata(run.experimentId, run.parameters));
  try {
    if (!run.csvPath.empty()) writeFileAtomically(run.csvPath, csv);
    if (!run.jsonPath.empty()) {
      nlohmann::json j{{"experiment", run.experimentId},
                       {"version", RFSCOPE_VERSION},
                       {"parameters", parameterSetToJson(run.parameters)},
                       {"seconds", seconds},
                       {"warnings", result.warnings},
                       {"table", tableToJson(result.table)}};
      // File names in the parameters need not be UTF-8: replace what JSON cannot hold.
      writeFileAtomically(run.jsonPath,
                          j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    }
    writePlots(result.table, run.plots);
  } catch (const std::exception& e) {
    std::cerr << "rfscope-cli: " << e.what() << "\n";
    return 1;
  }
  if (run.csvPath.empty() && run.jsonPath.empty() && run.plots.files.empty()) std::cout << csv;
  return 0;
}

}  // namespace rfscope::cli
