#pragma once
// An experiment in two halves: compute(settings) fills a typed Result — what was measured and
// predicted, as numbers and facts — and present(settings, result) turns it into what the user
// sees: the table's columns, its series and plot hints, and the warnings in words.
//
//   struct MyResult { std::vector<double> sigma, variance; std::string gap; };
//   class MyExperiment final : public ComputedExperiment<MySettings, MyResult> {
//     MySettings parse(const ParameterSet& params) const override;
//     Computed<MyResult> compute(const MySettings&, ResultContext<MyResult>&) const override;
//     Presentation present(const MySettings&, const MyResult&) const override;
//   };
//
// An experiment that builds on another calls the other's compute and reads its Result, never
// its table or labels. compute publishes partial results through its context; they reach the
// run's context presented, so a partial table is always present(settings, partial result).

#include <string>
#include <utility>
#include <vector>

#include "core/experiments/typed_experiment.h"

namespace rfscope {

// The run's context, plus where compute publishes a partial result.
template <class Result>
class ResultContext : public RunContext {
 public:
  virtual void publishPartialResult(const Result& partial) = 0;
};

// What compute returns: the result (complete, or what was finished when cancelled).
template <class Result>
struct Computed {
  RunStatus status = RunStatus::Completed;
  Result result;
};

// What present returns: the table and the warnings, as RunResult carries them.
struct Presentation {
  Table table;
  std::vector<std::string> warnings;
};

// Forwards everything to the outer context; partial results are dropped (a caller that uses the
// result of another experiment publishes its own partial tables).
template <class Result>
class ForwardingResultContext : public ResultContext<Result> {
 public:
  explicit ForwardingResultContext(RunContext& outer) : outer_(outer) {}
  bool cancelled() const override { return outer_.cancelled(); }
  void reportProgress(double fraction) override { outer_.reportProgress(fraction); }
  void publishPartial(const Table& partial) override { outer_.publishPartial(partial); }
  BackendChoice backendChoice() const override { return outer_.backendChoice(); }
  void reportBackend(const std::string& id, const std::string& note) override {
    outer_.reportBackend(id, note);
  }
  RowDistribution* rowDistribution() const override { return outer_.rowDistribution(); }
  void publishPartialResult(const Result&) override {}

 protected:
  RunContext& outer_;
};

template <class Settings, class Result>
class ComputedExperiment : public TypedExperiment<Settings> {
 public:
  virtual Computed<Result> compute(const Settings& settings,
                                   ResultContext<Result>& context) const = 0;
  virtual Presentation present(const Settings& settings, const Result& result) const = 0;

 protected:
  RunResult runWith(const Settings& settings, RunContext& context) const final {
    PresentingContext presenting(*this, settings, context);
    Computed<Result> computed = compute(settings, presenting);
    Presentation shown = present(settings, computed.result);
    return {computed.status, std::move(shown.table), std::move(shown.warnings)};
  }

 private:
  // Publishes partial results to the run's context as tables.
  class PresentingContext final : public ForwardingResultContext<Result> {
   public:
    PresentingContext(const ComputedExperiment& experiment, const Settings& settings,
                      RunContext& outer)
        : ForwardingResultContext<Result>(outer), experiment_(experiment), settings_(settings) {}
    void publishPartialResult(const Result& partial) override {
      this->outer_.publishPartial(experiment_.present(settings_, partial).table);
    }

   private:
    const ComputedExperiment& experiment_;
    const Settings& settings_;
  };
};

}  // namespace rfscope
