// The device kernels' algorithm run serially on the host (see leaf_kernel.h): the same trial
// function, the same strided scratch layout (emulated threads take the leaves' trials in turn),
// the same per-leaf accumulation.
#include <algorithm>
#include <array>

#include "core/montecarlo/leaf_kernel.h"
#include "core/montecarlo/strided_array.h"

namespace rfscope {
namespace {

class HostLeafKernel final : public LeafKernel {
 public:
  explicit HostLeafKernel(int threads) : threads_(std::max(1, threads)) {}

  std::string_view backendId() const override { return "host"; }
  std::string deviceDescription() const override {
    return "device kernels emulated on the host (" + std::to_string(threads_) + " threads)";
  }
  std::int64_t leavesToFill() const override { return 5; }

  void computeLeaves(const LeafLaunch& launch, std::span<MomentAccumulator> moments,
                     std::vector<StoredSample>& selected) override {
    const FastTrialPlan& plan = *launch.plan;
    const std::int64_t scratchSize = fastTrialScratchSize(plan);
    scratch_.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, scratchSize * threads_)),
                    0.0);
    const ZigguratTables& tables = zigguratTables();
    std::array<SignedLog, kTrialsPerLeaf> values;
    std::int64_t thread = 0;  // emulated thread that takes the next trial
    for (std::int64_t i = 0; i < launch.leafCount; ++i) {
      const std::int64_t leaf = launch.range.firstLeaf + i;
      const int count = leafTrialCount(leaf, launch.range.totalTrials);
      for (int k = 0; k < count; ++k) {
        const auto trial = static_cast<std::uint64_t>(leaf * kTrialsPerLeaf + k);
        const StridedArray mine{scratch_.data() + thread, threads_};
        thread = (thread + 1) % threads_;
        values[static_cast<std::size_t>(k)] =
            runFastTrial(plan, launch.axis1.data(), launch.axis2.data(), trial, tables, mine);
        if (sampleSelectionHash(plan.spec().seed, trial) < launch.range.selectionThreshold)
          selected.push_back({trial, values[static_cast<std::size_t>(k)]});
      }
      moments[static_cast<std::size_t>(i)] = accumulateLeaf(values.data(), count);
    }
    // A device appends in no particular order: so does this kernel, to keep the caller honest.
    std::reverse(selected.begin(), selected.end());
  }

 private:
  std::int64_t threads_;
  std::vector<double> scratch_;
};

}  // namespace

std::unique_ptr<LeafKernel> makeHostLeafKernel(int emulatedThreads) {
  return std::make_unique<HostLeafKernel>(emulatedThreads);
}

}  // namespace rfscope
