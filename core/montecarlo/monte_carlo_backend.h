#pragma once
// Where trials run. A backend computes leaves (see leaf_result.h) of a sampling plan; the engine
// decides which leaves, merges them, reports progress and handles cancellation. The CPU backend
// runs leaves in parallel with oneTBB; a CUDA backend can compute the same leaves on a device from
// the same per-trial functions and Philox streams.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct LeafRange {
  std::int64_t firstLeaf = 0;
  std::int64_t totalTrials = 0;          // of the whole run (the last leaf may be short)
  std::uint64_t selectionThreshold = 0;  // keep trial t for quantiles iff hash < threshold
};

class MonteCarloBackend {
 public:
  virtual ~MonteCarloBackend() = default;
  virtual std::string_view id() const = 0;
  virtual int concurrency() const = 0;  // leaves it can usefully run at once
  // Computes leaves firstLeaf .. firstLeaf + out.size() - 1 into out. Polls `stop` between trials
  // and returns early when it says true, marking unfinished leaves incomplete. Thread-safe `stop`.
  virtual void runLeaves(const SamplingPlan& plan, const LeafRange& range,
                         std::span<LeafResult> out, const std::function<bool()>& stop) = 0;
};

// oneTBB over all cores, or over `threads` worker threads when threads > 0.
std::unique_ptr<MonteCarloBackend> makeCpuBackend(int threads = 0);

// The trials of one leaf, sequentially (shared by backends and tests).
void runLeaf(const SamplingPlan& plan, const LeafRange& range, std::int64_t leaf, LeafResult& out,
             TrialScratch& scratch, const std::function<bool()>& stop);

}  // namespace rfscope
