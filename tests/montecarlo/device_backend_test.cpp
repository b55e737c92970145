// The device backend on machines without a GPU: the CUDA kernel's own steps run on the host
// (leaf_kernel_steps.h: trial indexing, strided scratch, per-leaf accumulation) behind the
// DeviceBackend's launch splitting, sample sorting and cancellation gives results equal to the
// CPU backend's to the last bit; plans it cannot sample are refused with a reason; and the
// backend choice falls back or fails as documented.
#include <atomic>

#include <gtest/gtest.h>

#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

MonteCarloResult runOn(MonteCarloBackend& backend, const MonteCarloRequest& request) {
  auto result = runMonteCarlo(request, {}, &backend);
  EXPECT_TRUE(result) << result.reason();
  return result ? *result : MonteCarloResult{};
}

TEST(DeviceBackend, HostKernelEqualsTheCpuBackendForEveryFastPlan) {
  struct Case {
    const char* mechanism;
    const char* coupling;
  };
  const Case cases[] = {
      {"trig", "iid"},        {"pos", "iid"},         {"pos-hyp", "iid"},
      {"gerf", "iid"},        {"oprf", "iid"},        {"hybrid-angular", "iid"},
      {"trig", "orf"},        {"pos", "simrf"},       {"oprf", "simrf"},
      {"pos-hyp", "orf"},     {"gerf", "simrf"},      {"pos", "orf-fast"},
      {"oprf", "simrf-fast"}, {"trig", "simrf-fast"}, {"hybrid-gaussian", "iid"},
      {"trig-phase", "iid"},  {"trig-phase", "orf"},  {"trig-phase", "simrf-fast"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.mechanism) + " / " + c.coupling);
    // 12 features in d = 5: two full blocks and a partial one; 2000 trials: a short last leaf.
    MonteCarloRequest request = testing::makeRequest(c.mechanism, c.coupling, 5, 0.4, 12, 2000);
    request.storedSamples = 300;
    auto cpu = makeCpuBackend(2);
    DeviceBackend device(makeHostLeafKernel(7), 3);
    const MonteCarloResult expected = runOn(*cpu, request);
    const MonteCarloResult actual = runOn(device, request);
    EXPECT_EQ(actual.backend, "host");
    testing::expectIdentical(expected, actual);
  }
}

TEST(DeviceBackend, ResultsDoNotDependOnLaunchOrGridSize) {
  MonteCarloRequest request = testing::makeRequest("pos", "simrf", 16, 0.5, 40, 5000);
  request.storedSamples = 1000;
  DeviceBackend small(makeHostLeafKernel(1), 1);
  DeviceBackend large(makeHostLeafKernel(33), 50);
  const MonteCarloResult a = runOn(small, request);
  const MonteCarloResult b = runOn(large, request);
  testing::expectIdentical(a, b);
  EXPECT_EQ(a.trials, 5000);
}

TEST(DeviceBackend, RefusesPlansWithoutAFastDeviceForm) {
  DeviceBackend device(makeHostLeafKernel(), 3);
  for (const auto& [mechanism, coupling, path, expected] :
       {std::tuple{"pois", "iid", SamplingPath::Fast, "continuous"},
        std::tuple{"pos", "simrf", SamplingPath::Full, "fast path"},
        std::tuple{"pos", "simrf-plus", SamplingPath::Fast, "fast path"},
        std::tuple{"sderf", "iid", SamplingPath::Fast, "own trial kernel"},
        std::tuple{"aderf", "orf", SamplingPath::Fast, "own trial kernel"}}) {
    MonteCarloRequest request = testing::makeRequest(mechanism, coupling, 4, 0.3, 4, 100);
    request.path = path;
    const auto result = runMonteCarlo(request, {}, &device);
    EXPECT_FALSE(result);
    EXPECT_NE(result.reason().find(expected), std::string::npos) << result.reason();
  }
}

TEST(DeviceBackend, CancelsBetweenLaunchesWithAConsistentPrefix) {
  MonteCarloRequest request = testing::makeRequest("oprf", "iid", 8, 0.5, 16, 64 * 400);
  DeviceBackend device(makeHostLeafKernel(), 4);
  std::atomic<int> polls = 0;
  MonteCarloCallbacks callbacks;
  callbacks.cancelled = [&polls] { return ++polls > 3; };
  const auto cancelled = runMonteCarlo(request, callbacks, &device);
  ASSERT_TRUE(cancelled);
  EXPECT_TRUE(cancelled->cancelled);
  EXPECT_GT(cancelled->trials, 0);
  EXPECT_LT(cancelled->trials, request.trials);
  EXPECT_EQ(cancelled->trials % kTrialsPerLeaf, 0);
  // The prefix is exactly the first trials of the full run.
  MonteCarloRequest prefix = request;
  prefix.trials = cancelled->trials;
  auto cpu = makeCpuBackend(1);
  const MonteCarloResult expected = runOn(*cpu, prefix);
  EXPECT_EQ(cancelled->moments.mean, expected.moments.mean);
  EXPECT_EQ(cancelled->moments.m2, expected.moments.m2);
}

TEST(BackendChoice, ParsesTheThreeChoices) {
  EXPECT_EQ(parseBackendChoice("cpu"), BackendChoice::Cpu);
  EXPECT_EQ(parseBackendChoice("cuda"), BackendChoice::Cuda);
  EXPECT_EQ(parseBackendChoice("auto"), BackendChoice::Auto);
  EXPECT_FALSE(parseBackendChoice("gpu"));
  EXPECT_EQ(backendChoiceId(BackendChoice::Auto), "auto");
}

TEST(BackendChoice, AutoAndCudaFollowWhatThisMachineHas) {
  const auto cuda = makeCudaBackend();
  const bool gpu = cuda.available();
  const std::string reason = cuda.reason();
  MonteCarloRequest request = testing::makeRequest("pos", "simrf", 8, 0.5, 8, 200);

  request.backend = BackendChoice::Auto;  // a small run stays on the CPU either way
  auto small = runMonteCarlo(request, {});
  ASSERT_TRUE(small) << small.reason();
  EXPECT_EQ(small->backend, "cpu");
  EXPECT_NE(small->backendNote.find("small"), std::string::npos);

  request.backend = BackendChoice::Cuda;
  auto forced = runMonteCarlo(request, {});
  if (gpu) {
    ASSERT_TRUE(forced) << forced.reason();
    EXPECT_EQ(forced->backend, "cuda");
  } else {
    EXPECT_FALSE(forced);
    EXPECT_NE(forced.reason().find("CUDA backend unavailable"), std::string::npos)
        << forced.reason();
    EXPECT_NE(forced.reason().find(reason), std::string::npos) << forced.reason();
    EXPECT_FALSE(reason.empty());
  }

  // A large discrete run: never on the GPU, and Auto says why.
  MonteCarloRequest discrete = testing::makeRequest("pois", "iid", 4, 0.3, 4, 100);
  const auto plan = makeSamplingPlan(discrete);
  ASSERT_TRUE(plan) << plan.reason();
  const auto selection = selectBackend(BackendChoice::Auto, *plan, 1e12, 1);
  ASSERT_TRUE(selection && selection->backend);
  EXPECT_EQ(selection->backend->id(), "cpu");
  EXPECT_FALSE(selection->note.empty());
}

}  // namespace
}  // namespace rfscope
