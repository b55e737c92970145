#pragma once
// How rfscope-cli shows that a long run (`run`, `mc`) is alive: one line on stderr, rewritten.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "app/cli/process_group.h"
#include "core/experiments/experiment.h"
#include "core/io/remaining_time.h"

namespace rfscope::cli {

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
        "running: " + remaining_.describe() + " (elapsed " + formatDuration(elapsed) + ")";
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
  RemainingTime remaining_;
  std::size_t printedWidth_ = 0;
};

}  // namespace rfscope::cli
