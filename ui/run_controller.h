#pragma once
// Runs experiments off the GUI thread. Starting a run cancels the previous one, whose late results
// are dropped; results reach the GUI only through queued signals, partial tables at most ~30 times
// per second.

#include <QObject>
#include <QString>
#include <cstdint>
#include <list>
#include <memory>

#include "core/experiments/experiment.h"

namespace rfscope::ui {

class RunController : public QObject {
  Q_OBJECT
 public:
  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // cancels every run and waits for its thread

  // Starts experiment with (validated) params; returns the run id carried by the signals.
  std::uint64_t start(const Experiment* experiment, const ParameterSet& params);
  void cancel();
  bool isRunning() const { return running_; }
  // Where the Monte Carlo parts of later runs go (see BackendChoice).
  void setBackendChoice(BackendChoice choice) { backendChoice_ = choice; }
  BackendChoice backendChoice() const { return backendChoice_; }

 signals:
  void progressChanged(double fraction);
  void partialResult(std::shared_ptr<const rfscope::Table> table);
  void finished(std::shared_ptr<const rfscope::RunResult> result, double seconds);
  void cancelled();
  void failed(const QString& message);
  // The backend a run's Monte Carlo used ("cpu", "cuda") and why, when Auto chose the CPU.
  void backendUsed(const QString& id, const QString& note);

 private:
  struct Job;
  void onJobDone(std::uint64_t id);
  bool stopCurrent();  // cancels the current run without signalling; true if one was running

  std::list<std::shared_ptr<Job>> jobs_;  // the current one last; cancelled ones until they end
  std::uint64_t currentId_ = 0;
  bool running_ = false;
  BackendChoice backendChoice_ = BackendChoice::Auto;
};

}  // namespace rfscope::ui
