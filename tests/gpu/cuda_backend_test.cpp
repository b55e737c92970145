// The CUDA backend on a machine with a CUDA device (run by tests/gpu/run-gpu-checks.sh; CI
// compiles these tests but has no GPU to run them): for every continuous mechanism and coupling
// the GPU's mean and variance equal the CPU backend's to 1e-9 relative for the same seed, runs are
// reproducible, cancellation is prompt, and large runs agree with the closed forms.
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include <gtest/gtest.h>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "tests/montecarlo/monte_carlo_test_support.h"

namespace rfscope {
namespace {

std::unique_ptr<MonteCarloBackend> gpuOrFail() {
  auto gpu = makeCudaBackend();
  if (!gpu) {
    ADD_FAILURE() << "no usable CUDA device: " << gpu.reason();
    return nullptr;
  }
  return std::move(*gpu);
}

double relativeDifference(double a, double b) {
  return std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
}

TEST(CudaBackend, MatchesTheCpuBackendForEveryMechanismAndCoupling) {
  auto gpu = gpuOrFail();
  ASSERT_TRUE(gpu);
  std::printf("device: %s\n", gpu->description().c_str());
  auto cpu = makeCpuBackend();
  double worst = 0;
  for (const char* mechanism : {"trig", "trig-phase", "pos", "pos-hyp", "gerf", "oprf",
                                "hybrid-angular", "hybrid-gaussian"}) {
    if (!findMechanism(mechanism)) continue;  // a mechanism this build does not have
    const bool hybrid = std::string(mechanism).rfind("hybrid", 0) == 0;
    for (const char* coupling : {"iid", "orf", "simrf", "orf-fast", "simrf-fast"}) {
      if (hybrid && std::string(coupling) != "iid") continue;  // hybrids are sampled i.i.d.
      for (int d : {7, 64}) {
        SCOPED_TRACE(std::string(mechanism) + " / " + coupling + " / d=" + std::to_string(d));
        MonteCarloRequest request = testing::makeRequest(mechanism, coupling, d, 0.3, 64, 20011);
        request.storedSamples = 2000;
        const auto onCpu = runMonteCarlo(request, {}, cpu.get());
        ASSERT_TRUE(onCpu) << onCpu.reason();
        const auto onGpu = runMonteCarlo(request, {}, gpu.get());
        ASSERT_TRUE(onGpu) << onGpu.reason();
        EXPECT_EQ(onGpu->backend, "cuda");
        EXPECT_EQ(onGpu->trials, onCpu->trials);
        const double mean = relativeDifference(onGpu->mean.value(), onCpu->mean.value());
        const double variance =
            std::fabs(onGpu->logVariance - onCpu->logVariance);  // relative, to first order
        EXPECT_LE(mean, 1e-9);
        EXPECT_LE(variance, 1e-9);
        worst = std::max({worst, mean, variance});
        ASSERT_EQ(onGpu->quantiles.size(), onCpu->quantiles.size());
        for (std::size_t i = 0; i < onGpu->quantiles.size(); ++i)
          EXPECT_NEAR(onGpu->quantiles[i].value.logAbs, onCpu->quantiles[i].value.logAbs, 1e-9);
      }
    }
  }
  std::printf("largest relative GPU-CPU difference (mean, variance): %.3g\n", worst);
}

TEST(CudaBackend, SameSeedSameNumbers) {
  auto gpu = gpuOrFail();
  ASSERT_TRUE(gpu);
  MonteCarloRequest request = testing::makeRequest("pos", "simrf", 64, 0.3, 64, 300000);
  const auto a = runMonteCarlo(request, {}, gpu.get());
  const auto b = runMonteCarlo(request, {}, gpu.get());
  ASSERT_TRUE(a && b);
  testing::expectIdentical(*a, *b);
}

TEST(CudaBackend, CancelsWithin50Milliseconds) {
  auto gpu = gpuOrFail();
  ASSERT_TRUE(gpu);
  // Costly trials (d = 1024, M = 4096): a whole wave of them takes far longer than 50 ms.
  MonteCarloRequest request = testing::makeRequest("oprf", "simrf", 1024, 0.1, 4096, 1 << 26);
  std::atomic<bool> stop = false;
  MonteCarloCallbacks callbacks;
  callbacks.cancelled = [&stop] { return stop.load(); };
  std::chrono::steady_clock::time_point stoppedAt;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stoppedAt = std::chrono::steady_clock::now();
    stop = true;
  });
  const auto result = runMonteCarlo(request, callbacks, gpu.get());
  const auto returnedAt = std::chrono::steady_clock::now();
  stopper.join();
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->cancelled);
  EXPECT_GT(result->trials, 0);
  EXPECT_LT(std::chrono::duration<double>(returnedAt - stoppedAt).count(), 0.05);
}

TEST(CudaBackend, LargeRunsAgreeWithTheClosedForm) {
  auto gpu = gpuOrFail();
  ASSERT_TRUE(gpu);
  for (const char* coupling : {"iid", "orf", "simrf"}) {
    SCOPED_TRACE(coupling);
    MonteCarloRequest request = testing::makeRequest("pos", coupling, 64, 0.1, 64, 4000000);
    const auto result = runMonteCarlo(request, {}, gpu.get());
    ASSERT_TRUE(result);
    const AnalyticAnswer answer = evaluateAnalytic(request, request.x, request.y);
    ASSERT_TRUE(answer.variance);
    // 99.9% interval from the batch-means standard error.
    const double z = std::fabs(std::exp(answer.variance->logVariance - result->logVariance) - 1) /
                     result->relativeStdErr;
    EXPECT_LT(z, 3.29) << "MC " << result->variance << " exact "
                       << std::exp(answer.variance->logVariance);
  }
}

}  // namespace
}  // namespace rfscope
