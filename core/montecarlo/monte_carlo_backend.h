#pragma once
// Where trials run. A backend computes leaves (see leaf_result.h) of a sampling plan; the engine
// decides which leaves, merges them, reports progress and handles cancellation. The CPU backend
// runs leaves in parallel with oneTBB; a CUDA backend can compute the same leaves on a device from
// the same per-trial functions and Philox streams.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/montecarlo/backend_choice.h"
#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

class MonteCarloBackend {
 public:
  virtual ~MonteCarloBackend() = default;
  virtual std::string_view id() const = 0;
  virtual std::string description() const { return std::string(id()); }  // for people
  // Why it was chosen over the one asked for (e.g. Auto's reason to stay on the CPU), or empty.
  virtual std::string selectionNote() const { return {}; }
  virtual int concurrency() const = 0;  // leaves it can usefully run at once
  // Most leaves worth handing it in one call (the engine's rounds of ~50 ms grow up to this).
  virtual std::int64_t maxLeavesPerCall() const { return std::int64_t{1} << 16; }
  // Whether it computes off the host (a GPU): the engine then merges one round while the backend
  // computes the next.
  virtual bool computesOffHost() const { return false; }
  // Whether it can sample this plan, or the reason not. The CPU backend samples every plan.
  virtual Status supports(const SamplingPlan& /*plan*/) const { return fine(); }
  // Computes leaves firstLeaf .. firstLeaf + out.size() - 1 into out. Polls `stop` between trials
  // and returns early when it says true, marking unfinished leaves incomplete. Thread-safe `stop`.
  // Throws std::runtime_error when the hardware fails (a device error): the run then fails.
  virtual void runLeaves(const SamplingPlan& plan, const LeafRange& range,
                         std::span<LeafResult> out, const std::function<bool()>& stop) = 0;
};

// oneTBB over all cores, or over `threads` worker threads when threads > 0.
std::unique_ptr<MonteCarloBackend> makeCpuBackend(int threads = 0);

struct BackendSelection {
  std::unique_ptr<MonteCarloBackend> backend;
  std::string note;  // why Auto chose the CPU (empty otherwise)
};

// The backend for a plan of `work` feature evaluations (see BackendChoice), or why the choice
// cannot be honoured (Cuda without a usable device); threads: the CPU backend's worker threads
// (0: all cores).
Outcome<BackendSelection> selectBackend(BackendChoice choice, const SamplingPlan& plan, double work,
                                        int threads);

// The trials of one leaf, sequentially (shared by backends and tests).
void runLeaf(const SamplingPlan& plan, const LeafRange& range, std::int64_t leaf, LeafResult& out,
             TrialScratch& scratch, const std::function<bool()>& stop);

}  // namespace rfscope
