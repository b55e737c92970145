// The engine: bit-identical results for any thread count and any split of the work, prompt
// cancellation with a consistent partial result, progress and snapshots.
#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "core/montecarlo/monte_carlo_engine.h"
#include "core/params/invalid_parameter.h"
#include "monte_carlo_test_support.h"
#include "tests/latency_bounds.h"

namespace rfscope {
namespace {

// Runs leaves one at a time, last first: the most different schedule from the TBB backend's.
class ReverseSerialBackend final : public MonteCarloBackend {
 public:
  std::string_view id() const override { return "reverse-serial"; }
  int concurrency() const override { return 3; }
  void runLeaves(const SamplingPlan& plan, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>& stop) override {
    TrialScratch scratch;
    for (std::size_t i = out.size(); i-- > 0;)
      runLeaf(plan, range, range.firstLeaf + static_cast<std::int64_t>(i), out[i], scratch, stop);
  }
};

TEST(MonteCarloEngine, BitIdenticalForAnyThreadCountAndSplit) {
  for (const char* coupling : {"iid", "simrf"}) {
    MonteCarloRequest request = testing::makeRequest("pos", coupling, 16, 0.5, 20, 20011);
    request.storedSamples = 500;
    const auto one = [&] {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      return runMonteCarlo(request);
    }();
    const auto two = [&] {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      return runMonteCarlo(request, {}, nullptr, 2);
    }();
    ReverseSerialBackend backend;
    const auto reverse = runMonteCarlo(request, {}, &backend);
    ASSERT_TRUE(one && two && reverse);
    EXPECT_EQ(one->trials, 20011);
    testing::expectIdentical(*one, *two);
    testing::expectIdentical(*one, *reverse);
    EXPECT_EQ(reverse->backend, "reverse-serial");
  }
}

// A mechanism's own trial kernel (random Maclaurin features: a degree and Rademacher bits from the
// trial's Philox stream) is as reproducible as the built-in samplers.
TEST(MonteCarloEngine, OwnTrialKernelBitIdenticalForAnyThreadCount) {
  MonteCarloRequest request = testing::makeRequest("maclaurin", "iid", 16, 0.4, 8, 5003);
  request.storedSamples = 200;
  const auto one = [&] {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    return runMonteCarlo(request);
  }();
  const auto two = runMonteCarlo(request, {}, nullptr, 2);
  ReverseSerialBackend backend;
  const auto reverse = runMonteCarlo(request, {}, &backend);
  ASSERT_TRUE(one && two && reverse);
  testing::expectIdentical(*one, *two);
  testing::expectIdentical(*one, *reverse);
}

TEST(MonteCarloEngine, RunsAreReproducibleAndSeedsMatter) {
  const MonteCarloRequest request = testing::makeRequest("trig", "orf", 8, 1.0, 8, 3000);
  const auto a = runMonteCarlo(request), b = runMonteCarlo(request);
  MonteCarloRequest other = request;
  other.seed = request.seed + 1;
  const auto c = runMonteCarlo(other);
  testing::expectIdentical(*a, *b);
  EXPECT_NE(a->moments.m2, c->moments.m2);
}

TEST(MonteCarloEngine, CancelsWithin50MillisecondsAndKeepsAConsistentPrefix) {
  MonteCarloRequest request = testing::makeRequest("oprf", "simrf", 64, 0.5, 64, 1'000'000'000);
  std::atomic<bool> cancel{false};
  std::chrono::steady_clock::time_point cancelledAt;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancelledAt = std::chrono::steady_clock::now();
    cancel = true;
  });
  MonteCarloCallbacks callbacks;
  callbacks.cancelled = [&] { return cancel.load(std::memory_order_relaxed); };
  const auto result = runMonteCarlo(request, callbacks);
  const auto returnedAt = std::chrono::steady_clock::now();
  canceller.join();
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->cancelled);
  EXPECT_GT(result->trials, 0);
  EXPECT_EQ(result->trials % kTrialsPerLeaf, 0);  // whole leaves only: trials [0, n)
  EXPECT_LT(std::chrono::duration<double>(returnedAt - cancelledAt).count(),
            0.05 * test::kLatencyScale);

  // The partial result equals a complete run of the same number of trials.
  MonteCarloRequest prefix = request;
  prefix.trials = result->trials;
  prefix.storedSamples = 0;
  request.storedSamples = 0;
  const auto full = runMonteCarlo(prefix);
  EXPECT_EQ(full->moments.m2, result->moments.m2);
  EXPECT_EQ(full->moments.mean, result->moments.mean);
}

TEST(MonteCarloEngine, ReportsProgressAndSnapshots) {
  const MonteCarloRequest request = testing::makeRequest("pos", "orf", 64, 0.3, 64, 60000);
  std::vector<double> progress;
  std::vector<std::int64_t> snapshotTrials;
  MonteCarloCallbacks callbacks;
  callbacks.progress = [&](double f) { progress.push_back(f); };
  callbacks.partial = [&](const MonteCarloResult& r) { snapshotTrials.push_back(r.trials); };
  callbacks.partialIntervalSeconds = 0;
  const auto result = runMonteCarlo(request, callbacks);
  ASSERT_TRUE(result);
  ASSERT_FALSE(progress.empty());
  EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
  EXPECT_EQ(progress.back(), 1.0);
  ASSERT_FALSE(snapshotTrials.empty());
  EXPECT_TRUE(std::is_sorted(snapshotTrials.begin(), snapshotTrials.end()));
  EXPECT_LT(snapshotTrials.back(), 60000);
  EXPECT_GT(result->featuresPerSecond, 0);
}

TEST(MonteCarloEngine, RejectsWhatItCannotSample) {
  const MonteCarloRequest request = testing::makeRequest("pos", "simrf", 1, 1.0, 4, 10);
  const auto result = runMonteCarlo(request, {});
  EXPECT_FALSE(result);
  EXPECT_NE(result.reason().find("simplex"), std::string::npos);
  // Values out of range are bad input, not a status.
  MonteCarloRequest noFeatures = testing::makeRequest("pos", "iid", 3, 1.0, 4, 10);
  noFeatures.features = 0;
  EXPECT_THROW(runMonteCarlo(noFeatures), InvalidParameter);
}

}  // namespace
}  // namespace rfscope
