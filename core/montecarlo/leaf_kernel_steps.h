#pragma once
// The work of the CUDA leaf kernel, cut at its one barrier into two steps that the host kernel
// also runs (host_leaf_kernel.cpp), so that the kernel's index arithmetic — which trial a thread
// runs, where its scratch lies, which leaves a block takes on each pass of its grid-stride loop —
// is exercised by tests on machines without a GPU.
//
// A block of kThreadsPerBlock threads takes kLeavesPerBlock consecutive leaves per pass: thread
// `local` runs trial (local mod 64) of leaf (first + local / 64), writing its value to the block's
// shared values[local] (step 1); after the barrier, the first thread of each leaf accumulates the
// leaf's values in trial order (step 2). Passes advance by the grid's width in leaves.

#include <cstdint>

#include "core/montecarlo/fast_trial_plan.h"
#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/strided_array.h"

namespace rfscope {

inline constexpr int kLeavesPerBlock = 2;
inline constexpr int kThreadsPerBlock = kLeavesPerBlock * static_cast<int>(kTrialsPerLeaf);

struct LeafKernelArgs {
  FastTrialPlan plan;
  const double* axis1 = nullptr;  // the pair's frame (Structured plans)
  const double* axis2 = nullptr;
  double* scratch = nullptr;             // blocks · kThreadsPerBlock interleaved per-thread arrays
  std::int64_t blocks = 1;               // of the grid
  LeafRange range;                       // range.firstLeaf: the launch's first leaf
  std::int64_t leafCount = 0;            // of the launch
  MomentAccumulator* moments = nullptr;  // one per leaf of the launch
};

// Trials of the leaf that thread `local` works on in the pass starting at launch leaf `first`.
RFSCOPE_HOST_DEVICE inline int passLeafTrials(const LeafKernelArgs& a, std::int64_t first,
                                              int local) {
  const std::int64_t i = first + local / kTrialsPerLeaf;
  return i < a.leafCount ? leafTrialCount(a.range.firstLeaf + i, a.range.totalTrials) : 0;
}

// Step 1, every thread of block `block`: runs its trial into values[local]. Returns true and
// sets *trial when the trial is one selected for quantiles. Kind: the plan's kind.
template <FastTrialKind Kind>
RFSCOPE_HOST_DEVICE inline bool runTrialStep(const LeafKernelArgs& a, std::int64_t block, int local,
                                             std::int64_t first, SignedLog* values,
                                             std::uint64_t* trial) {
  const int lane = local % static_cast<int>(kTrialsPerLeaf);
  if (lane >= passLeafTrials(a, first, local)) return false;
  const std::int64_t leaf = a.range.firstLeaf + first + local / kTrialsPerLeaf;
  *trial = static_cast<std::uint64_t>(leaf * kTrialsPerLeaf + lane);
  const StridedArray scratch{a.scratch + block * kThreadsPerBlock + local,
                             a.blocks * kThreadsPerBlock};
  values[local] = runFastTrialOfKind<Kind>(a.plan, a.axis1, a.axis2, *trial, scratch);
  return sampleSelectionHash(a.plan.spec().seed, *trial) < a.range.selectionThreshold;
}

// Step 2, after the barrier: the first thread of each leaf accumulates the leaf.
RFSCOPE_HOST_DEVICE inline void accumulateStep(const LeafKernelArgs& a, int local,
                                               std::int64_t first, const SignedLog* values) {
  if (local % kTrialsPerLeaf != 0) return;
  const int count = passLeafTrials(a, first, local);
  if (count > 0) a.moments[first + local / kTrialsPerLeaf] = accumulateLeaf(values + local, count);
}

}  // namespace rfscope
