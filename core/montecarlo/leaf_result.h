#pragma once
// The unit of work and of merging: a leaf is kTrialsPerLeaf consecutive trials (the last leaf of a
// run may be shorter). Leaves are computed in any order on any thread but always merged in leaf
// order, and leaf l feeds batch l mod kBatchCount of the batch-means error estimate — so results
// are bit-identical for every thread count and every grouping of leaves into parallel tasks.

#include <cstdint>
#include <vector>

#include "core/montecarlo/moment_accumulator.h"

namespace rfscope {

inline constexpr std::int64_t kTrialsPerLeaf = 64;
inline constexpr int kBatchCount = 32;

// Leaves firstLeaf, firstLeaf + 1, ... of a run.
struct LeafRange {
  std::int64_t firstLeaf = 0;
  std::int64_t totalTrials = 0;          // of the whole run (the last leaf may be short)
  std::uint64_t selectionThreshold = 0;  // keep trial t for quantiles iff hash < threshold
};

struct StoredSample {
  std::uint64_t trial = 0;
  SignedLog value;
};

struct LeafResult {
  MomentAccumulator moments;
  std::vector<StoredSample> samples;  // the leaf's trials selected for quantiles
  bool complete = false;              // false if the run was cancelled inside this leaf
};

// Trials kept for quantiles: trial t is kept iff hash(seed, t) < threshold, a rule that does not
// depend on how trials are split (a uniformly random subset of expected size fraction · trials).
RFSCOPE_HOST_DEVICE inline std::uint64_t sampleSelectionHash(std::uint64_t seed,
                                                             std::uint64_t trial) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + trial + 0x632BE59BD9B4E019ull;  // SplitMix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Trials of leaf `leaf` of a run of totalTrials (kTrialsPerLeaf, fewer for the last leaf).
RFSCOPE_HOST_DEVICE inline int leafTrialCount(std::int64_t leaf, std::int64_t totalTrials) {
  const std::int64_t rest = totalTrials - leaf * kTrialsPerLeaf;
  return rest <= 0 ? 0 : rest < kTrialsPerLeaf ? static_cast<int>(rest) : int{kTrialsPerLeaf};
}

// The moments of a leaf from its trial values in trial order (every backend's leaf).
RFSCOPE_HOST_DEVICE inline MomentAccumulator accumulateLeaf(const SignedLog* values, int count) {
  MomentAccumulator moments;
  for (int i = 0; i < count; ++i)
    moments.add(values[i]);
  return moments;
}

}  // namespace rfscope
