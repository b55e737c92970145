// Throughput of the CUDA backend against the CPU backend on all cores and against the measured
// ceiling (cuda_throughput_bound.h), on the comparison workload (comparison_workload.h: positive
// features, d = 64, M = 64, one pair) — ≥ 10⁹ feature evaluations per GPU run. Needs a CUDA device;
// run by tests/gpu/run-gpu-checks.sh: gpu_benchmark --benchmark_format=json
#include <string>

#include <benchmark/benchmark.h>

#include "core/montecarlo/cuda_throughput_bound.h"
#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "tests/benchmarks/montecarlo/comparison_workload.h"

namespace rfscope {
namespace {

constexpr std::int64_t kGpuTrials = std::int64_t{1} << 24;  // × 64 features = 1.07e9
constexpr std::int64_t kCpuTrials = std::int64_t{1} << 21;

void setRates(benchmark::State& state, std::int64_t trials, std::int64_t features) {
  state.counters["trials_per_second"] = benchmark::Counter(
      static_cast<double>(trials), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["features_per_second"] = benchmark::Counter(
      static_cast<double>(trials * features), benchmark::Counter::kIsIterationInvariantRate);
}

void runOn(benchmark::State& state, MonteCarloBackend* backend, const std::string& mechanism,
           const std::string& coupling, std::int64_t trials) {
  const MonteCarloRequest request =
      comparisonRequest(mechanism, coupling, SamplingPath::Fast, trials);
  std::string label;
  for (auto _ : state) {
    const auto result = runMonteCarlo(request, {}, backend);
    if (!result) {
      state.SkipWithError(result.reason().c_str());
      return;
    }
    label = backend->description() + " mse=" + std::to_string(result->variance);
  }
  setRates(state, trials, request.features);
  state.SetLabel(label);
}

void cuda(benchmark::State& state, const std::string& mechanism, const std::string& coupling) {
  auto gpu = makeCudaBackend();
  if (!gpu) {
    state.SkipWithError(gpu.reason().c_str());
    return;
  }
  runOn(state, gpu->get(), mechanism, coupling, kGpuTrials);
}

void cpu(benchmark::State& state, const std::string& mechanism, const std::string& coupling) {
  auto backend = makeCpuBackend();  // all cores
  runOn(state, backend.get(), mechanism, coupling, kCpuTrials);
}

// The ceiling: only the random numbers the estimator draws, timed on the device.
void drawBound(benchmark::State& state, const std::string& coupling) {
  const MonteCarloRequest request =
      comparisonRequest("pos", coupling, SamplingPath::Fast, kGpuTrials);
  const auto plan = makeSamplingPlan(request);
  if (!plan || !plan->fast) {
    state.SkipWithError(plan ? "no fast path" : plan.reason().c_str());
    return;
  }
  std::string error;
  for (auto _ : state) {
    const auto bound = measureCudaThroughputBound(*plan->fast, kGpuTrials, &error);
    if (!bound) {
      state.SkipWithError(error.c_str());
      return;
    }
    state.SetIterationTime(bound->seconds);
    state.counters["draws_per_trial"] = static_cast<double>(bound->draws);
  }
  setRates(state, kGpuTrials, request.features);
}

BENCHMARK_CAPTURE(cuda, pos_simrf, "pos", "simrf")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(cuda, pos_orf, "pos", "orf")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(cuda, pos_iid, "pos", "iid")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(cuda, oprf_simrf, "oprf", "simrf")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(cpu, pos_simrf, "pos", "simrf")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(cpu, pos_iid, "pos", "iid")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(drawBound, pos_simrf, "simrf")->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(drawBound, pos_iid, "iid")->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace rfscope
