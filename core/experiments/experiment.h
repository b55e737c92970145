#pragma once
// An experiment maps a validated parameter set to a Table, reporting progress, publishing partial
// tables while it runs, and stopping promptly when cancelled. The GUI and the CLI are thin shells
// over experiments; neither contains math.

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/experiments/memory_budget.h"
#include "core/experiments/row_distribution.h"
#include "core/experiments/table.h"
#include "core/montecarlo/backend_choice.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// Implemented by whoever runs an experiment. Called from worker threads: implementations must be
// thread-safe.
class RunContext {
 public:
  virtual ~RunContext() = default;
  virtual bool cancelled() const = 0;
  virtual void reportProgress(double fraction) = 0;       // 0..1, non-decreasing
  virtual void publishPartial(const Table& partial) = 0;  // a snapshot; may be called often
  // Where Monte Carlo runs (the user's choice; Auto by default), and what actually ran them.
  virtual BackendChoice backendChoice() const { return BackendChoice::Auto; }
  virtual void reportBackend(const std::string& /*id*/, const std::string& /*note*/) {}
  // The processes that share this run's grids (an MPI job), or null for this process alone.
  virtual RowDistribution* rowDistribution() const { return nullptr; }
};

// A RunContext that is never cancelled and ignores progress (tests, simple callers).
class SilentRunContext final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {}
};

enum class RunStatus { Completed, Cancelled };

struct RunResult {
  RunStatus status = RunStatus::Completed;
  Table table;                        // complete, or what was finished when cancelled
  std::vector<std::string> warnings;  // things the user should know about the numbers
};

struct ExperimentInfo {
  std::string id;           // kebab-case: "variance-vs-sigma"
  std::string title;        // "Log-variance vs σ"
  std::string group;        // paper or theme: "CRT (Likhosherstov et al. 2022)"
  std::string description;  // one line
};

// How an experiment's partial tables relate to its final table.
enum class PartialTables {
  AppendRows,  // a partial table is the final table's first rows (rows are only appended)
  RefineRows,  // a partial table holds every row, refined as the run goes (histograms, densities)
};

// The two sizes tests run an experiment at (testParameters).
enum class TestLoad {
  Light,  // a fraction of a second: thread-count determinism, exports, partial tables
  Heavy,  // long enough, in short steps, to be cancelled half-way
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual const ExperimentInfo& info() const = 0;
  virtual std::vector<ParameterSpec> parameters() const = 0;
  // Rules that involve several parameters (each parameter alone is checked against its spec).
  virtual std::vector<ParameterError> crossValidate(const ParameterSet&) const { return {}; }
  // params must have passed validate(). Never throws for valid parameters.
  virtual RunResult run(const ParameterSet& params, RunContext& context) const = 0;

  // What a run with valid params will hold at its peak, where that grows with the parameters
  // (memory_budget.h); none for experiments whose memory stays small.
  virtual std::optional<MemoryEstimate> memoryEstimate(const ParameterSet&) const {
    return std::nullopt;
  }

  // Spec and cross-parameter checks together, then the memory estimate against the budget.
  std::vector<ParameterError> validate(const ParameterSet& params) const;

  // Valid parameters for the experiment contract test (tests/experiments); the defaults unless an
  // experiment's defaults are too slow for Light or too quick for Heavy.
  virtual ParameterSet testParameters(TestLoad load) const;
  virtual PartialTables partialTables() const { return PartialTables::AppendRows; }

 protected:
  // The defaults with some values replaced (for testParameters).
  ParameterSet defaultsWith(
      std::initializer_list<std::pair<std::string, ParameterValue>> values) const;
};

}  // namespace rfscope
