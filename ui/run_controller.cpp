#include "ui/run_controller.h"

#include <QMetaObject>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace rfscope::ui {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kMinInterval = std::chrono::milliseconds(33);  // ≤ 30 updates per second

}  // namespace

struct RunController::Job final : RunContext {
  RunController* controller = nullptr;
  std::uint64_t id = 0;
  std::atomic<bool> cancelRequested{false};
  std::thread thread;
  std::mutex mutex;  // guards the throttling clocks (reportProgress/publishPartial are concurrent)
  Clock::time_point lastProgress{};
  Clock::time_point lastPartial{};

  BackendChoice backend = BackendChoice::Auto;  // fixed when the run starts
  std::string lastBackendReport;                // guarded by mutex

  bool cancelled() const override { return cancelRequested.load(std::memory_order_relaxed); }
  BackendChoice backendChoice() const override { return backend; }

  void reportBackend(const std::string& backendId, const std::string& note) override {
    {
      std::lock_guard lock(mutex);
      const std::string report = backendId + '\n' + note;
      if (report == lastBackendReport) return;  // experiments run many Monte Carlo requests
      lastBackendReport = report;
    }
    const QString id = QString::fromStdString(backendId), why = QString::fromStdString(note);
    post([id, why](RunController* c) { emit c->backendUsed(id, why); });
  }

  void reportProgress(double fraction) override {
    {
      std::lock_guard lock(mutex);
      const auto now = Clock::now();
      if (fraction < 1.0 && now - lastProgress < kMinInterval) return;
      lastProgress = now;
    }
    post([fraction](RunController* c) { emit c->progressChanged(fraction); });
  }

  void publishPartial(const Table& partial) override {
    {
      std::lock_guard lock(mutex);
      const auto now = Clock::now();
      if (now - lastPartial < kMinInterval) return;
      lastPartial = now;
    }
    auto snapshot = std::make_shared<const Table>(partial);
    post([snapshot](RunController* c) { emit c->partialResult(snapshot); });
  }

  // Runs f on the GUI thread if this job is still the current one when the event is handled.
  template <typename F>
  void post(F f) {
    RunController* c = controller;
    const std::uint64_t jobId = id;
    QMetaObject::invokeMethod(
        c,
        [c, jobId, f]() {
          if (c->currentId_ == jobId) f(c);
        },
        Qt::QueuedConnection);
  }
};

RunController::RunController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const rfscope::Table>>();
  qRegisterMetaType<std::shared_ptr<const rfscope::RunResult>>();
}

RunController::~RunController() {
  for (auto& job : jobs_)
    job->cancelRequested = true;
  for (auto& job : jobs_)
    if (job->thread.joinable()) job->thread.join();
}

std::uint64_t RunController::start(const Experiment* experiment, const ParameterSet& params) {
  stopCurrent();
  auto job = std::make_shared<Job>();
  job->controller = this;
  job->id = ++currentId_;
  job->backend = backendChoice_;
  running_ = true;
  jobs_.push_back(job);
  Job* raw = job.get();
  job->thread = std::thread([this, raw, experiment, params]() {
    const auto start = Clock::now();
    try {
      auto result = std::make_shared<const RunResult>(experiment->run(params, *raw));
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      raw->post([result, seconds](RunController* c) {
        c->running_ = false;
        if (result->status == RunStatus::Cancelled)
          emit c->cancelled();
        else
          emit c->finished(result, seconds);
      });
    } catch (const std::exception& e) {
      const QString message = QString::fromUtf8(e.what());
      raw->post([message](RunController* c) {
        c->running_ = false;
        emit c->failed(message);
      });
    }
    const std::uint64_t id = raw->id;
    QMetaObject::invokeMethod(
        this, [this, id]() { onJobDone(id); }, Qt::QueuedConnection);
  });
  return job->id;
}

bool RunController::stopCurrent() {
  if (jobs_.empty() || !running_) return false;
  jobs_.back()->cancelRequested = true;
  ++currentId_;  // drop whatever the cancelled run still sends
  running_ = false;
  return true;
}

void RunController::cancel() {
  if (stopCurrent()) emit cancelled();
}

void RunController::onJobDone(std::uint64_t id) {
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    if ((*it)->id != id) continue;
    (*it)->thread.join();  // it has returned: join is immediate
    jobs_.erase(it);
    break;
  }
}

}  // namespace rfscope::ui
