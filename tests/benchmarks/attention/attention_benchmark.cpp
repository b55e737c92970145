// Attention timings (run by hand: attention_benchmark --benchmark_format=json).
// Target (issue 14): L = 4096, d = 64, M = 256, six estimators (PosRF and OPRF under IID, ORF and
// SimRF), 20 redraws: under 5 s on the 2-core machine (AttentionError/L4096: the whole experiment,
// its predictions included; process CPU time and wall time). The parts: exact attention (blocked,
// O(L²d)), the delta-method prediction (factorised and direct), one draw of random-feature
// attention with its errors.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/attention/rf_attention.h"
#include "core/experiments/experiment_registry.h"
#include "core/math/large_allocations.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// As the programs do at their start (large_allocations.h).
[[maybe_unused]] const bool kAllocatorTuned = (keepLargeAllocations(), true);

class QuietContext final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {}
};

AttentionProblem problem(Eigen::Index length, int d, Eigen::Index dv) {
  TrialStream stream(3, 0);
  return gaussianAttentionProblem(length, d, dv, 0.5 * std::pow(d, -0.25), stream);
}

void AttentionErrorL4096(benchmark::State& state) {
  const Experiment& experiment = *findExperiment("attention-error");
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  params.set("d", std::int64_t{64});
  params.set("sequence-length", std::int64_t{4096});
  params.set("value-dimension", std::int64_t{64});
  params.set("mechanisms", std::vector<std::string>{"pos", "oprf"});
  params.set("couplings", std::vector<std::string>{"iid", "orf", "simrf"});
  params.set("features-min", std::int64_t{256});
  params.set("features-max", std::int64_t{256});
  params.set("features-steps", std::int64_t{1});
  params.set("redraws", std::int64_t{20});
  params.set("error-rows", std::int64_t{32});
  params.set("prediction-rows", state.range(0));
  QuietContext context;
  for (auto _ : state)
    benchmark::DoNotOptimize(experiment.run(params, context));
}
BENCHMARK(AttentionErrorL4096)
    ->Arg(4)
    ->Arg(32)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void ExactAttentionL4096(benchmark::State& state) {
  const AttentionProblem p = problem(4096, 64, 64);
  for (auto _ : state)
    benchmark::DoNotOptimize(exactAttention(p));
}
BENCHMARK(ExactAttentionL4096)->Unit(benchmark::kMillisecond);

// The delta-method prediction of PosRF, |R| rows: factorised (Gram products shared by the rows)
// and direct (O(L² d_v) per row).
void DeltaMethodL4096(benchmark::State& state) {
  const AttentionProblem p = problem(4096, 64, 64);
  const KeyGram gram(p);
  const Mechanism& pos = *findMechanism("pos");
  std::vector<Eigen::Index> rows;
  for (Eigen::Index i = 0; i < state.range(1); ++i)
    rows.push_back(17 + i * 4096 / state.range(1));
  const auto method = state.range(0) == 0 ? PredictionMethod::Factorised : PredictionMethod::Direct;
  for (auto _ : state)
    benchmark::DoNotOptimize(predictAttention(p, gram, pos, {}, rows, method));
}
BENCHMARK(DeltaMethodL4096)
    ->ArgNames({"direct", "rows"})
    ->Args({0, 1})
    ->Args({0, 32})
    ->Args({1, 1})
    ->Args({1, 4})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void RfAttentionDrawL4096M256(benchmark::State& state) {
  const AttentionProblem p = problem(4096, 64, 64);
  const ExactAttention exact = exactAttention(p);
  std::vector<Eigen::Index> rows;
  for (Eigen::Index i = 0; i < 32; ++i)
    rows.push_back(i * 128);
  const ExactAttentionRows exactRows = exactAttentionRows(p, rows);
  const Mechanism& pos = *findMechanism("pos");
  FeatureMapSpec spec;
  spec.kernel = Kernel::Softmax;
  spec.coupling = Coupling::Orthogonal;
  spec.features = 256;
  spec.dimension = 64;
  std::uint64_t draw = 0;
  for (auto _ : state) {
    TrialStream stream(5, draw++);
    const auto map = pos.drawFeatureMap(spec, stream);
    benchmark::DoNotOptimize(
        attentionErrors(p, exact, exactRows, (*map)->queries(p.queries), (*map)->keys(p.keys)));
  }
}
BENCHMARK(RfAttentionDrawL4096M256)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rfscope
