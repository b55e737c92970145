#pragma once
// The processes that run one rfscope-cli job: this process alone, or — in a build with MPI, when
// an MPI launcher (mpirun, srun) started it — every rank of the launch. Every rank parses the same
// command line and computes a share: Monte Carlo leaves (rank 0 runs the engine; the others
// compute the leaves it hands out) or chunks of an experiment's grid (see RowDistribution). Rank 0
// merges in the order one process uses, so the numbers are the same bit for bit, and it alone
// prints and writes files.
//
// Failures: a failure every rank sees while setting up (bad input) is reported once, by rank 0,
// and every rank exits with its status. A failure on one rank during the run ends the whole job
// (MPI_Abort) after that rank printed why; rank 0 writes its files only after the run, atomically,
// so no partial output is left.

#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "core/experiments/row_distribution.h"
#include "core/montecarlo/monte_carlo_backend.h"

namespace rfscope::cli {

// Thrown by ProcessGroup::agree on ranks that end because another rank failed (or because rank 0
// reports the same failure): the exit status, nothing to print.
struct QuietExit {
  int status = 1;
};

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  bool isRoot() const { return rank() == 0; }
  bool distributed() const { return size() > 1; }

  // Collective, after setting up: `failure` is this rank's (null if none). If no rank failed,
  // returns; otherwise rethrows this rank's failure where it is the one to report (rank 0, or a
  // rank that failed while rank 0 did not) and throws QuietExit everywhere else.
  virtual void agree(std::exception_ptr failure) const {
    if (failure) std::rethrow_exception(failure);
  }

  // Collective, after agree: every rank checks that it runs the same work as rank 0 — `settings`
  // is the parsed work's canonical text (experiment and every parameter value, or the estimator
  // and its run) — so that ranks started with other arguments (an MPMD launch, a per-rank wrapper)
  // never merge rows of different settings. A rank that differs fails as for bad input (exit 2).
  void agreeOnWork(const std::string& settings) const;

  // Rank 0: the backend that runs leaves on `local` here and on every other rank's backend.
  // `note`: why `local` was chosen (kept in the result, as a one-process run reports it).
  virtual std::unique_ptr<MonteCarloBackend> monteCarloBackend(
      std::unique_ptr<MonteCarloBackend> local, std::string note) const;
  // The other ranks: computes the leaves rank 0 hands out on `local` until rank 0 is done.
  virtual void serveLeaves(MonteCarloBackend& local, const SamplingPlan& plan) const;

  // The grid distribution of experiment runs, or null for one process.
  virtual RowDistribution* rowDistribution() const { return nullptr; }

  // Rank 0's value of `value`, on every rank (a group of one: `value`).
  virtual std::uint64_t rootValue(std::uint64_t value) const { return value; }

  // Ends the job after this rank failed during the run (a no-op for one process).
  virtual void abortJob(int /*status*/) const {}

  // From here on this rank no longer works with the others (they know of the failure agree
  // reported, or the run is over): its own failures end it alone, without ending the job.
  void settle() const { settled_ = true; }
  bool settled() const { return settled_; }

 private:
  mutable bool settled_ = false;
};

// The group of this process, set up by joinProcessGroup (a group of one until then).
const ProcessGroup& processGroup();

// Joins the job's group when an MPI launcher started this process in a build with MPI; the
// returned object leaves it when destroyed (keep it alive for the whole of main).
std::unique_ptr<ProcessGroup> joinProcessGroup(int& argc, char**& argv);

namespace detail {
void setCurrentProcessGroup(const ProcessGroup* group);  // by a joined group, for its lifetime
}

}  // namespace rfscope::cli
