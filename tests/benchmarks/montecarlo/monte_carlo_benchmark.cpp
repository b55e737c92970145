// Throughput of the Monte Carlo engine on the workload of the NumPy comparison
// (numpy_reference.py): empirical MSE of the positive-feature estimator at one pair, d = 64,
// M = 64, for the iid, orf and simrf couplings, on 1 and 2 threads, and the CPU's ceiling for it.
// Counters: trials and feature evaluations per second. Run: montecarlo_benchmark
// --benchmark_format=json
#include <cmath>
#include <string>

#include <benchmark/benchmark.h>

#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "core/montecarlo/simd_fast_trials.h"
#include "tests/benchmarks/montecarlo/comparison_workload.h"

namespace rfscope {
namespace {

void runBenchmark(benchmark::State& state, const std::string& mechanism,
                  const std::string& coupling, SamplingPath path, std::int64_t trials) {
  const int threads = static_cast<int>(state.range(0));
  const MonteCarloRequest request = comparisonRequest(mechanism, coupling, path, trials);
  auto backend = makeCpuBackend(threads);
  std::string summary;
  for (auto _ : state) {
    const auto result = runMonteCarlo(request, {}, backend.get());
    if (!result) {
      state.SkipWithError(result.reason().c_str());
      return;
    }
    summary =
        "mse=" + std::to_string(result->variance) + " mean=" + std::to_string(result->mean.value());
  }
  state.counters["threads"] = threads;
  state.counters["trials_per_second"] = benchmark::Counter(
      static_cast<double>(trials), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["features_per_second"] =
      benchmark::Counter(static_cast<double>(trials * request.features),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(summary);
}

void posIid(benchmark::State& s) {
  runBenchmark(s, "pos", "iid", SamplingPath::Fast, 200000);
}
void posOrf(benchmark::State& s) {
  runBenchmark(s, "pos", "orf", SamplingPath::Fast, 100000);
}
void posSimrf(benchmark::State& s) {
  runBenchmark(s, "pos", "simrf", SamplingPath::Fast, 100000);
}
void posIidFull(benchmark::State& s) {
  runBenchmark(s, "pos", "iid", SamplingPath::Full, 20000);
}
void posOrfFull(benchmark::State& s) {
  runBenchmark(s, "pos", "orf", SamplingPath::Full, 2000);
}
void posSimrfFull(benchmark::State& s) {
  runBenchmark(s, "pos", "simrf", SamplingPath::Full, 2000);
}
void oprfSimrf(benchmark::State& s) {
  runBenchmark(s, "oprf", "simrf", SamplingPath::Fast, 100000);
}
void trigIid(benchmark::State& s) {
  runBenchmark(s, "trig", "iid", SamplingPath::Fast, 200000);
}

// The CPU's ceiling for the same workload on one thread: only the trials' random numbers (as many
// normals as fastTrialRandomDraws) and one e^x per feature, vectorised like the trials
// (simdCeilingKernel), without the engine. The fast path's rate over this is the fraction of the
// ceiling it reaches.
void ceiling(benchmark::State& state, const std::string& coupling,
             CeilingNormals normals = CeilingNormals::BoxMuller) {
  const std::int64_t trials = 200000;
  const auto plan =
      makeSamplingPlan(comparisonRequest("pos", coupling, SamplingPath::Fast, trials));
  if (!plan || !plan->fast) {
    state.SkipWithError("no fast plan");
    return;
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(simdCeilingKernel(*plan->fast, 0, trials, normals));
  state.counters["trials_per_second"] = benchmark::Counter(
      static_cast<double>(trials), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(simdTargetName());
}
void ceilingIid(benchmark::State& s) {
  ceiling(s, "iid");
}
void ceilingOrf(benchmark::State& s) {
  ceiling(s, "orf");
}
void ceilingSimrf(benchmark::State& s) {
  ceiling(s, "simrf");
}
// The i.i.d. ceiling with Philox and e^x alone (no normal transform at all): what the transform
// costs.
void ceilingIidNoTransform(benchmark::State& s) {
  ceiling(s, "iid", CeilingNormals::None);
}

// The engine's own cost per 64-trial leaf (merging moments and batches in leaf order), with a
// backend whose leaves cost nothing: the rate a device backend must stay under for the host to
// keep up (the engine overlaps this merge with the device's next round).
class InstantBackend final : public MonteCarloBackend {
 public:
  InstantBackend() {
    for (int l = 0; l < 97; ++l)  // leaves of values near 1 with varying scales, like real ones
      for (int k = 0; k < 64; ++k)
        pool_[l].add({0.01 * ((l * 64 + k) % 89), 1});
  }
  std::string_view id() const override { return "instant"; }
  int concurrency() const override { return 4096; }
  void runLeaves(const SamplingPlan&, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>&) override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i].moments = pool_[(range.firstLeaf + static_cast<std::int64_t>(i)) % 97];
      out[i].complete = true;
    }
  }

 private:
  MomentAccumulator pool_[97];
};

void engineMergePerLeaf(benchmark::State& state) {
  const std::int64_t leaves = 1 << 18;
  const MonteCarloRequest request =
      comparisonRequest("pos", "iid", SamplingPath::Fast, leaves * kTrialsPerLeaf);
  InstantBackend backend;
  for (auto _ : state)
    benchmark::DoNotOptimize(runMonteCarlo(request, {}, &backend));
  state.counters["leaves_per_second"] = benchmark::Counter(
      static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(posIid)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posOrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posSimrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posIidFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posOrfFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posSimrfFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(oprfSimrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(trigIid)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ceilingIid)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ceilingOrf)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ceilingSimrf)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ceilingIidNoTransform)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(engineMergePerLeaf)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rfscope
