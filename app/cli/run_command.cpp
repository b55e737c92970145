#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/plot_output.h"
#include "app/cli/process_group.h"
#include "app/cli/run_arguments.h"
#include "core/io/atomic_file.h"
#include "core/io/json_export.h"
#include "core/io/table_csv.h"
#include "ui/remaining_time.h"

namespace rfscope::cli {
namespace {

// Progress on stderr once a run has taken more than a second (a terminal user wants to know it is
// alive; short runs stay quiet): "running: 45% · about 12 s left (elapsed 10 s)", at most a few
// times per second — and at least once a second on rank 0, so that a run whose first cells take
// minutes still shows it is alive and for how long it has run.
class StderrProgress final : public RunContext {
 public:
  StderrProgress() {
    if (!processGroup().isRoot()) return;
    heartbeat_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      while (!finished_) {
        // A second after the last line (or after the start): no gap much over a second.
        const auto due = std::max(lastPrint_, start_) + std::chrono::seconds(1);
        wake_.wait_until(lock, due);
        if (!finished_ && std::chrono::steady_clock::now() >= due) printLocked(lastFraction_);
      }
    });
  }
  ~StderrProgress() override { stopHeartbeat(); }

  bool cancelled() const override { return false; }
  void reportProgress(double fraction) override {
    std::lock_guard lock(mutex_);
    lastFraction_ = fraction;
    const auto now = std::chrono::steady_clock::now();
    if (fraction < 1 && now - lastPrint_ < std::chrono::milliseconds(200)) return;
    printLocked(fraction);
  }
  void publishPartial(const Table&) override {}
  RowDistribution* rowDistribution() const override { return processGroup().rowDistribution(); }
  void finish() {
    stopHeartbeat();
    if (printedWidth_ > 0) std::fprintf(stderr, "\n");
  }

 private:
  void stopHeartbeat() {
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    wake_.notify_all();
    if (heartbeat_.joinable()) heartbeat_.join();
  }

  void printLocked(double fraction) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    remaining_.update(fraction, elapsed);
    if (elapsed < 1) return;
    lastPrint_ = now;
    const std::string line =
        "running: " + remaining_.describe() + " (elapsed " + ui::formatDuration(elapsed) + ")";
    // Spaces clear what a longer previous line left.
    std::fprintf(stderr, "\r%s%*s", line.c_str(),
                 static_cast<int>(std::max<std::size_t>(printedWidth_, line.size()) - line.size()),
                 "");
    printedWidth_ = std::max(printedWidth_, line.size());
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread heartbeat_;
  bool finished_ = false;
  double lastFraction_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point lastPrint_{};
  ui::RemainingTime remaining_;
  std::size_t printedWidth_ = 0;
};

}  // namespace

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
