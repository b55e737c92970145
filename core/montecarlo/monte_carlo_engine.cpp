#include "core/montecarlo/monte_carlo_engine.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <stdexcept>

namespace rfscope {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::uint64_t selectionThreshold(std::int64_t stored, std::int64_t trials) {
  if (stored >= trials) return std::numeric_limits<std::uint64_t>::max();
  if (stored <= 0) return 0;
  return static_cast<std::uint64_t>(std::ldexp(static_cast<double>(stored) / trials, 64));
}

// Leaf firstLeaf + i feeds batch (firstLeaf + i) mod kBatchCount, in leaf order within each batch.
// The batches are independent, so large rounds merge them in parallel: the host keeps up with a
// GPU (about 10⁷ leaves per second) without changing a bit of the result.
void mergeIntoBatches(const std::vector<LeafResult>& leaves, std::int64_t count,
                      std::int64_t firstLeaf, std::vector<MomentAccumulator>& batches) {
  const auto mergeBatch = [&](std::int64_t batch) {
    std::int64_t i = ((batch - firstLeaf) % kBatchCount + kBatchCount) % kBatchCount;
    for (; i < count; i += kBatchCount)
      batches[static_cast<std::size_t>(batch)].merge(leaves[static_cast<std::size_t>(i)].moments);
  };
  if (count < 2048) {
    for (std::int64_t b = 0; b < kBatchCount; ++b)
      mergeBatch(b);
    return;
  }
  tbb::parallel_for(std::int64_t{0}, std::int64_t{kBatchCount}, mergeBatch);
}

}  // namespace

Outcome<MonteCarloResult> runMonteCarlo(const MonteCarloRequest& request,
                                        const MonteCarloCallbacks& callbacks,
                                        MonteCarloBackend* backend, int threads) {
  using Result = Outcome<MonteCarloResult>;
  auto madePlan = makeSamplingPlan(request);
  if (!madePlan) return Result::unavailable(madePlan.reason());
  const SamplingPlan* plan = &*madePlan;
  std::unique_ptr<MonteCarloBackend> ownBackend;
  std::string backendNote;
  if (!backend) {
    auto selection = selectBackend(
        request.backend, *plan,
        static_cast<double>(request.trials) * static_cast<double>(request.features), threads);
    if (!selection) return Result::unavailable(selection.reason());
    ownBackend = std::move(selection->backend);
    backendNote = std::move(selection->note);
    backend = ownBackend.get();
  } else {
    backendNote = backend->selectionNote();
  }
  if (const Status supported = backend->supports(*plan); !supported)
    return Result::unavailable(supported.reason());
  const auto start = Clock::now();
  const std::int64_t totalLeaves = (request.trials + kTrialsPerLeaf - 1) / kTrialsPerLeaf;
  LeafRange range;
  range.totalTrials = request.trials;
  range.selectionThreshold = selectionThreshold(request.storedSamples, request.trials);

  std::vector<MomentAccumulator> batches(kBatchCount);
  std::vector<StoredSample> samples;
  const auto snapshot = [&] {
    std::vector<StoredSample> copy = samples;
    // The total is the merge of the batches in batch order: one merge per leaf, not two.
    MomentAccumulator total;
    for (const MomentAccumulator& batch : batches)
      total.merge(batch);
    MonteCarloResult r =
        summarize(total, batches, copy, request.quantileLevels, request.histogramBins,
                  plan->fourthMomentInfinite, plan->exactTail);
    r.trialsRequested = request.trials;
    r.seconds = secondsSince(start);
    r.featuresPerSecond =
        r.seconds > 0 ? static_cast<double>(r.trials) * request.features / r.seconds : 0;
    r.backend = std::string(backend->id());
    r.backendNote = backendNote;
    r.path = plan->path == SamplingPath::Fast ? "fast" : "full";
    r.logKernelValue = plan->logKernelValue;
    r.parametersUsed = plan->parametersUsed;
    return r;
  };

  const std::function<bool()>& stop = callbacks.cancelled;
  std::int64_t leavesPerRound = 2 * std::max(1, backend->concurrency());
  std::int64_t nextLeaf = 0;
  bool cancelled = false;
  auto lastPartial = Clock::now();

  struct Round {
    std::int64_t first = 0, count = 0;
    std::vector<LeafResult> leaves;
    double seconds = 0;
  };
  const auto runRound = [&](Round& round) {
    LeafRange roundRange = range;
    roundRange.firstLeaf = round.first;
    round.leaves.assign(static_cast<std::size_t>(round.count), LeafResult{});
    const auto roundStart = Clock::now();
    backend->runLeaves(*plan, roundRange, round.leaves, stop);
    round.seconds = secondsSince(roundStart);
  };
  // A backend that computes off the host (a GPU) gets the next round before this one is merged,
  // so that the device never waits for the host. Merging stays in leaf order: same results.
  const bool overlap = backend->computesOffHost();
  Round current, next;
  current.count = std::min(leavesPerRound, totalLeaves);
  std::future<void> nextDone;
  try {
    runRound(current);
    for (;;) {
      const bool roundComplete = std::all_of(current.leaves.begin(), current.leaves.end(),
                                             [](const LeafResult& leaf) { return leaf.complete; });
      const std::int64_t following = current.first + current.count;
      // Aim at rounds of ~50 ms: often enough for progress and snapshots, long enough to amortise.
      const double scale = current.seconds > 0 ? 0.05 / current.seconds : 4.0;
      leavesPerRound =
          std::clamp<std::int64_t>(static_cast<std::int64_t>(current.count * std::min(scale, 4.0)),
                                   std::max(1, backend->concurrency()),
                                   std::max<std::int64_t>(1, backend->maxLeavesPerCall()));
      const bool more = roundComplete && following < totalLeaves && !(stop && stop());
      if (more) {
        next.first = following;
        next.count = std::min(leavesPerRound, totalLeaves - following);
      }
      if (more && overlap) nextDone = std::async(std::launch::async, [&] { runRound(next); });

      // Merge the complete prefix in leaf order: a cancelled run reports trials [0, n) exactly.
      const auto prefix = static_cast<std::int64_t>(
          std::find_if(current.leaves.begin(), current.leaves.end(),
                       [](const LeafResult& leaf) { return !leaf.complete; }) -
          current.leaves.begin());
      mergeIntoBatches(current.leaves, prefix, nextLeaf, batches);
      for (std::int64_t i = 0; i < prefix; ++i) {
        const auto& selected = current.leaves[static_cast<std::size_t>(i)].samples;
        samples.insert(samples.end(), selected.begin(), selected.end());
      }
      nextLeaf += prefix;
      cancelled = !more && nextLeaf < totalLeaves;
      if (callbacks.progress) callbacks.progress(static_cast<double>(nextLeaf) / totalLeaves);
      if (!more) break;
      if (callbacks.partial && secondsSince(lastPartial) >= callbacks.partialIntervalSeconds) {
        callbacks.partial(snapshot());
        lastPartial = Clock::now();
      }
      if (overlap)
        nextDone.get();
      else
        runRound(next);
      std::swap(current, next);
    }
  } catch (const std::runtime_error& e) {
    return Result::unavailable(std::string(backend->id()) + " backend failed: " + e.what());
  }
  MonteCarloResult result = snapshot();
  result.cancelled = cancelled;
  return result;
}

}  // namespace rfscope
