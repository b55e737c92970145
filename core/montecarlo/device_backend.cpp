#include "core/montecarlo/device_backend.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

DeviceBackend::DeviceBackend(std::unique_ptr<LeafKernel> kernel, std::int64_t leavesPerLaunch)
    : kernel_(std::move(kernel)),
      leavesPerLaunch_(leavesPerLaunch > 0 ? leavesPerLaunch
                                           : std::max<std::int64_t>(1, kernel_->leavesToFill())),
      launchLeaves_(std::max<std::int64_t>(1, leavesPerLaunch_ / 16)) {}  // grows while cheap

int DeviceBackend::concurrency() const {
  return static_cast<int>(std::min<std::int64_t>(leavesPerLaunch_, 1 << 30));
}

std::int64_t DeviceBackend::maxLeavesPerCall() const {
  // Up to 2^18 leaves (1.7·10⁷ trials; ~40 ms at 10¹⁰ feature evaluations/s with M = 64): long
  // enough to amortise a round's fixed costs, short enough that progress keeps flowing.
  return std::max<std::int64_t>(std::int64_t{1} << 18, 16 * leavesPerLaunch_);
}

Status DeviceBackend::supports(const SamplingPlan& plan) const {
  if (plan.fast) return fine();
  if (plan.model.family == TrialFamily::Kernel)
    return Status::unavailable("the " + std::string(id()) +
                               " backend does not run a mechanism's own trial kernel (sderf, "
                               "aderf: CPU only)");
  return Status::unavailable(
      plan.model.family == TrialFamily::Discrete
          ? "the " + std::string(id()) +
                " backend samples the continuous mechanisms only (not pois/geom)"
          : "the " + std::string(id()) +
                " backend runs the fast path only (not --path full, simrf-plus, "
                "orf-norm-coupled or the quasi-Monte Carlo couplings)");
}

void DeviceBackend::runLeaves(const SamplingPlan& plan, const LeafRange& range,
                              std::span<LeafResult> out, const std::function<bool()>& stop) {
  if (const Status supported = supports(plan); !supported)
    throw std::runtime_error(supported.reason());  // a misuse the engine rules out
  std::vector<MomentAccumulator> moments;
  std::vector<StoredSample> selected;
  const auto total = static_cast<std::int64_t>(out.size());
  for (std::int64_t done = 0; done < total;) {
    if (stop && stop()) return;  // the leaves not yet computed stay incomplete
    LeafLaunch launch;
    launch.plan = &*plan.fast;
    launch.axis1 = {plan.frameAxis1.data(), static_cast<std::size_t>(plan.frameAxis1.size())};
    launch.axis2 = {plan.frameAxis2.data(), static_cast<std::size_t>(plan.frameAxis2.size())};
    launch.range = range;
    launch.range.firstLeaf = range.firstLeaf + done;
    launch.leafCount = std::min(launchLeaves_, total - done);
    moments.assign(static_cast<std::size_t>(launch.leafCount), MomentAccumulator{});
    selected.clear();
    const auto launchStart = std::chrono::steady_clock::now();
    kernel_->computeLeaves(launch, moments, selected);
    adaptLaunchSize(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - launchStart).count(),
        launch.leafCount);
    // The device appends selected trials in whatever order its threads finish: sort them back into
    // trial order, which is the CPU backend's order within and across leaves.
    std::sort(selected.begin(), selected.end(),
              [](const StoredSample& a, const StoredSample& b) { return a.trial < b.trial; });
    for (std::int64_t i = 0; i < launch.leafCount; ++i) {
      LeafResult& leaf = out[static_cast<std::size_t>(done + i)];
      leaf = LeafResult{};
      leaf.moments = moments[static_cast<std::size_t>(i)];
      leaf.complete = true;
    }
    for (const StoredSample& sample : selected) {
      const auto leaf = static_cast<std::int64_t>(sample.trial) / kTrialsPerLeaf - range.firstLeaf;
      out[static_cast<std::size_t>(leaf)].samples.push_back(sample);
    }
    done += launch.leafCount;
  }
}

void DeviceBackend::adaptLaunchSize(double seconds, std::int64_t leaves) {
  // Launches of 5–40 ms: cancellation stays prompt however costly a trial is, and short launches
  // never dominate. Results do not depend on the launch size.
  if (seconds > 0.04 && leaves == launchLeaves_)
    launchLeaves_ = std::max<std::int64_t>(1, launchLeaves_ / 2);
  else if (seconds < 0.005 && leaves == launchLeaves_)
    launchLeaves_ = std::min(2 * launchLeaves_, 8 * leavesPerLaunch_);
}

Outcome<std::unique_ptr<MonteCarloBackend>> makeCudaBackend() {
  std::string reason;
  auto kernel = makeCudaLeafKernel(&reason);
  if (!kernel) return Outcome<std::unique_ptr<MonteCarloBackend>>::unavailable(reason);
  return std::unique_ptr<MonteCarloBackend>(std::make_unique<DeviceBackend>(std::move(kernel)));
}

}  // namespace rfscope
