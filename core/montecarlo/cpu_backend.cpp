// oneTBB stays in this file: core's public headers must not include it (Qt's `emit` breaks it).
#include <algorithm>
#include <string>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/simd_fast_trials.h"
#include "core/montecarlo/simd_target.h"

namespace rfscope {

void runLeaf(const SamplingPlan& plan, const LeafRange& range, std::int64_t leaf, LeafResult& out,
             TrialScratch& scratch, const std::function<bool()>& stop) {
  out = LeafResult{};
  const std::int64_t first = leaf * kTrialsPerLeaf;
  const std::int64_t last = std::min(first + kTrialsPerLeaf, range.totalTrials);
  if (plan.fast && simdComputesTrials(*plan.fast)) {  // the same values, a vector at a time
    if (stop && stop()) return;
    SignedLog values[kTrialsPerLeaf];
    runFastTrialsSimd(*plan.fast, static_cast<std::uint64_t>(first), static_cast<int>(last - first),
                      values, scratch.frame);
    for (std::int64_t t = first; t < last; ++t) {
      const SignedLog& value = values[t - first];
      out.moments.add(value);
      if (sampleSelectionHash(plan.seed, static_cast<std::uint64_t>(t)) < range.selectionThreshold)
        out.samples.push_back({static_cast<std::uint64_t>(t), value});
    }
    out.complete = true;
    return;
  }
  for (std::int64_t t = first; t < last; ++t) {
    if (stop && stop()) return;
    const auto trial = static_cast<std::uint64_t>(t);
    const SignedLog value = sampleTrial(plan, trial, scratch);
    out.moments.add(value);
    if (sampleSelectionHash(plan.seed, trial) < range.selectionThreshold)
      out.samples.push_back({trial, value});
  }
  out.complete = true;
}

namespace {

class CpuBackend final : public MonteCarloBackend {
 public:
  explicit CpuBackend(int threads) : arena_(threads > 0 ? threads : tbb::task_arena::automatic) {}

  std::string_view id() const override { return "cpu"; }
  std::string description() const override {
    return "CPU (" + simdTargetId() + "), " + std::to_string(concurrency()) + " threads";
  }
  int concurrency() const override { return arena_.max_concurrency(); }

  void runLeaves(const SamplingPlan& plan, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>& stop) override {
    tbb::enumerable_thread_specific<TrialScratch> scratch;
    arena_.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 1),
                        [&](const tbb::blocked_range<std::size_t>& leaves) {
                          TrialScratch& local = scratch.local();
                          for (std::size_t i = leaves.begin(); i != leaves.end(); ++i)
                            runLeaf(plan, range, range.firstLeaf + static_cast<std::int64_t>(i),
                                    out[i], local, stop);
                        });
    });
  }

 private:
  mutable tbb::task_arena arena_;  // max_concurrency() initialises it lazily
};

}  // namespace

std::unique_ptr<MonteCarloBackend> makeCpuBackend(int threads) {
  return std::make_unique<CpuBackend>(threads);
}

}  // namespace rfscope
