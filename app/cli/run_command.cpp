#include <chrono>
#include <iostream>
#include <optional>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "app/cli/process_group.h"
#include "app/cli/run_arguments.h"
#include "app/cli/stderr_progress.h"
#include "core/io/json_export.h"
#include "core/io/output_format.h"

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

  const TableDocument document{run.experimentId, run.parameters, result.table, result.warnings,
                               seconds};
  try {
    writeTables(run.tables, document);
    writePlots(result.table, run.plots);
  } catch (const std::exception& e) {
    std::cerr << "rfscope-cli: " << e.what() << "\n";
    return 1;
  }
  // --check: the preset's claim and its verdict on stdout (the table only to the files named),
  // exit 4 when it does not hold.
  if (run.check) {
    const ClaimVerdict verdict = checkClaim(run.preset->claim, result.table);
    std::cout << "preset " << run.preset->id << "\n" << claimReport(run.preset->claim, verdict);
    return verdict.holds ? 0 : 4;
  }
  // With no output file the table goes to stdout in the first table format (CSV).
  if (run.tables.empty() && run.plots.files.empty())
    std::cout << outputFormats(OutputKind::Table).front()->tableWriter->write(document);
  return 0;
}

}  // namespace rfscope::cli
