#pragma once
// What an accelerator computes for a device backend (device_backend.h): the leaves of a fast-path
// plan, each leaf's moments accumulated over its trials in trial order with the very same
// MomentAccumulator::add as the CPU backend, plus the trials selected for quantiles. The CUDA
// kernels implement it on a GPU; the host kernel runs the same per-leaf algorithm serially — the
// reference that tests on machines without a GPU check the device backend's chunking against.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/montecarlo/fast_trial_plan.h"
#include "core/montecarlo/leaf_result.h"

namespace rfscope {

struct LeafLaunch {
  const FastTrialPlan* plan = nullptr;
  std::span<const double> axis1, axis2;  // the pair's frame vectors (Structured plans only)
  LeafRange range;                       // range.firstLeaf: the first leaf of this launch
  std::int64_t leafCount = 0;
};

class LeafKernel {
 public:
  virtual ~LeafKernel() = default;
  virtual std::string_view backendId() const = 0;  // "cuda", "host"
  virtual std::string deviceDescription() const = 0;
  virtual std::int64_t leavesToFill() const = 0;  // leaves one launch needs to keep it busy
  // Fills moments[i] for leaf range.firstLeaf + i (i < leafCount) and appends the selected trials
  // to `selected` in any order. Throws std::runtime_error on a device error.
  virtual void computeLeaves(const LeafLaunch& launch, std::span<MomentAccumulator> moments,
                             std::vector<StoredSample>& selected) = 0;
};

// The CUDA kernels on the first CUDA device; nullptr with the reason when the project was built
// without CUDA, no device or driver is present, or the device cannot run the built code.
std::unique_ptr<LeafKernel> makeCudaLeafKernel(std::string* reason);

// The CUDA kernel's steps run on the host, for a grid of `emulatedBlocks` blocks.
std::unique_ptr<LeafKernel> makeHostLeafKernel(int emulatedBlocks = 3);

}  // namespace rfscope
