#pragma once
// A Monte Carlo backend over a LeafKernel (an accelerator): it runs fast-path plans of the
// continuous mechanisms, splits the engine's rounds into launches (checking for cancellation
// between them) and hands back per-leaf results in the engine's format, selected samples sorted
// into their leaves — so the engine merges them exactly as it merges the CPU backend's.

#include <memory>
#include <string>

#include "core/montecarlo/leaf_kernel.h"
#include "core/montecarlo/monte_carlo_backend.h"

namespace rfscope {

class DeviceBackend final : public MonteCarloBackend {
 public:
  // leavesPerLaunch: the nominal leaves per launch (0: the kernel's leavesToFill(), about one
  // wave of the device); launches then shrink or grow to take 5–40 ms. `stop` is checked between
  // launches.
  explicit DeviceBackend(std::unique_ptr<LeafKernel> kernel, std::int64_t leavesPerLaunch = 0);

  std::string_view id() const override { return kernel_->backendId(); }
  std::string description() const override { return kernel_->deviceDescription(); }
  int concurrency() const override;
  std::int64_t maxLeavesPerCall() const override;
  bool computesOffHost() const override { return true; }
  Status supports(const SamplingPlan& plan) const override;
  void runLeaves(const SamplingPlan& plan, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>& stop) override;

 private:
  void adaptLaunchSize(double seconds, std::int64_t leaves);

  std::unique_ptr<LeafKernel> kernel_;
  std::int64_t leavesPerLaunch_;  // the nominal launch: about one wave of the device
  std::int64_t launchLeaves_;     // the current launch, adapted to the trials' cost
};

// The CUDA backend (a DeviceBackend over the CUDA kernels), or why there is none.
Outcome<std::unique_ptr<MonteCarloBackend>> makeCudaBackend();

}  // namespace rfscope
