#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "app/cli/run_arguments.h"
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
  const RunInvocation run = parseRunInvocation(args);

  StderrProgress progress;
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = run.experiment->run(run.parameters, progress);
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
