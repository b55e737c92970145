// The CUDA leaf kernel run on the host (see leaf_kernel.h): the same two steps
// (leaf_kernel_steps.h) for every block of an emulated grid, each block's threads one after the
// other, step 1 for all of them before step 2 as the kernel's barrier requires.
#include <algorithm>
#include <array>

#include "core/montecarlo/leaf_kernel.h"
#include "core/montecarlo/leaf_kernel_steps.h"

namespace rfscope {
namespace {

class HostLeafKernel final : public LeafKernel {
 public:
  explicit HostLeafKernel(int blocks) : blocks_(std::max(1, blocks)) {}

  std::string_view backendId() const override { return "host"; }
  std::string deviceDescription() const override {
    return "the CUDA kernel emulated on the host (" + std::to_string(blocks_) + " blocks)";
  }
  std::int64_t leavesToFill() const override { return blocks_ * kLeavesPerBlock; }

  void computeLeaves(const LeafLaunch& launch, std::span<MomentAccumulator> moments,
                     std::vector<StoredSample>& selected) override {
    LeafKernelArgs args;
    args.plan = *launch.plan;
    args.axis1 = launch.axis1.data();
    args.axis2 = launch.axis2.data();
    args.blocks = blocks_;
    args.range = launch.range;
    args.leafCount = launch.leafCount;
    args.moments = moments.data();
    scratch_.assign(static_cast<std::size_t>(std::max<std::int64_t>(
                        1, fastTrialScratchSize(args.plan) * blocks_ * kThreadsPerBlock)),
                    0.0);
    args.scratch = scratch_.data();
    withFastTrialKind(args.plan.kind,
                      [&](auto kind) { runGrid<decltype(kind)::value>(args, selected); });
  }

 private:
  template <FastTrialKind Kind>
  void runGrid(const LeafKernelArgs& args, std::vector<StoredSample>& selected) {
    std::array<SignedLog, kThreadsPerBlock> values;  // a block's shared memory
    for (std::int64_t block = 0; block < args.blocks; ++block)
      for (std::int64_t first = block * kLeavesPerBlock; first < args.leafCount;
           first += args.blocks * kLeavesPerBlock) {
        for (int local = 0; local < kThreadsPerBlock; ++local) {
          std::uint64_t trial = 0;
          if (runTrialStep<Kind>(args, block, local, first, values.data(), &trial))
            selected.push_back({trial, values[static_cast<std::size_t>(local)]});
        }
        for (int local = 0; local < kThreadsPerBlock; ++local)
          accumulateStep(args, local, first, values.data());
      }
  }

  std::int64_t blocks_;
  std::vector<double> scratch_;
};

}  // namespace

std::unique_ptr<LeafKernel> makeHostLeafKernel(int emulatedBlocks) {
  return std::make_unique<HostLeafKernel>(emulatedBlocks);
}

}  // namespace rfscope
