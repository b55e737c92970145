// Throughput of the Monte Carlo engine on the workload of the NumPy comparison
// (numpy_reference.py): empirical MSE of the positive-feature estimator at one pair, d = 64,
// M = 64, for the iid, orf and simrf couplings, on 1 and 2 threads. Counters: trials and feature
// evaluations per second. Run: montecarlo_benchmark --benchmark_format=json
#include <cmath>
#include <string>

#include <benchmark/benchmark.h>

#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {

// The pair of the comparison, defined in closed form so that numpy_reference.py uses the same one:
// x_i = 0.1 sin(i + 1), y_i = 0.1 cos(2i + 1), i = 0..63 (|x + y| ≈ 1.1: a converging MSE).
MonteCarloRequest comparisonRequest(const std::string& mechanism, const std::string& coupling,
                                    SamplingPath path, std::int64_t trials) {
  MonteCarloRequest request;
  request.mechanism = findMechanism(mechanism);
  request.coupling = coupling;
  request.features = 64;
  request.trials = trials;
  request.path = path;
  request.storedSamples = 0;
  request.x.resize(64);
  request.y.resize(64);
  for (int i = 0; i < 64; ++i) {
    request.x[i] = 0.1 * std::sin(i + 1.0);
    request.y[i] = 0.1 * std::cos(2.0 * i + 1.0);
  }
  return request;
}

void runBenchmark(benchmark::State& state, const std::string& mechanism,
                  const std::string& coupling, SamplingPath path, std::int64_t trials) {
  const int threads = static_cast<int>(state.range(0));
  const MonteCarloRequest request = comparisonRequest(mechanism, coupling, path, trials);
  auto backend = makeCpuBackend(threads);
  std::string summary;
  for (auto _ : state) {
    std::string error;
    const auto result = runMonteCarlo(request, {}, &error, backend.get());
    if (!result) {
      state.SkipWithError(error.c_str());
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

BENCHMARK(posIid)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posOrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posSimrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posIidFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posOrfFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(posSimrfFull)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(oprfSimrf)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(trigIid)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rfscope
