// Kernel-classification timings (run by hand: classification_benchmark --benchmark_format=json).
// Target (issue 13): chess (25 249 training points, 2 807 test points, d = 6), M = 128, the eight
// CRT mechanisms, 10 draws each — the classification-table experiment's crt-table1 row for chess
// at a fixed σ — in under 10 s on the 2-core machine (Chess/CrtTable1Row). The parts: the exact
// kernel classifier (O(nLd), the reference), one draw of one mechanism's classifier (O((n+L)Md)),
// and the σ search (SimRF App. B.1) on its cut-down validation split.

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "core/data/exact_kernel_classifier.h"
#include "core/data/train_test_data.h"
#include "core/data/uci_datasets.h"
#include "core/experiments/classification_problem.h"
#include "core/experiments/classification_table.h"
#include "core/experiments/experiment_registry.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

constexpr double kChessSigma = 1.0;

void runTable(benchmark::State& state, const std::string& mechanisms) {
  const Experiment& experiment = *findExperiment("classification-table");
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  params.set("datasets", std::vector<std::string>{"chess"});
  params.set("sigma", std::string("1"));
  params.set("features", std::int64_t{128});
  std::vector<std::string> ids;
  for (std::size_t begin = 0; begin < mechanisms.size();) {
    const auto comma = mechanisms.find(',', begin);
    ids.push_back(mechanisms.substr(begin, comma - begin));
    begin = comma == std::string::npos ? mechanisms.size() : comma + 1;
  }
  params.set("mechanisms", ids);
  params.set("repeats", std::int64_t{10});
  if (!experiment.validate(params).empty()) state.SkipWithError("invalid parameters");
  loadUciDataset("chess");  // read once, outside the timing (as a second run finds it cached)
  for (auto _ : state) {
    SilentRunContext context;
    const RunResult result = experiment.run(params, context);
    benchmark::DoNotOptimize(result.table.columns.data());
  }
}

void Chess_CrtTable1Row(benchmark::State& state) {
  runTable(state, "trig,pos,gerf,pois,geom,oprf,pois-plus,geom-plus");
}
BENCHMARK(Chess_CrtTable1Row)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

void Chess_PosRfOnly(benchmark::State& state) {
  runTable(state, "pos");
}
BENCHMARK(Chess_PosRfOnly)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

void Chess_ExactClassifier(benchmark::State& state) {
  const TrainTestData split =
      splitAndStandardise(loadUciDataset("chess"), {.trainFraction = 0.9, .seed = 1});
  for (auto _ : state) {
    const auto predictions = exactKernelPredictions(split.train, split.test.features, kChessSigma);
    benchmark::DoNotOptimize(predictions.data());
  }
}
BENCHMARK(Chess_ExactClassifier)->Unit(benchmark::kMillisecond)->UseRealTime();

void Chess_OneDraw(benchmark::State& state, const char* mechanismId) {
  const auto problem =
      prepareClassificationProblem(loadUciDataset("chess"), {.seed = 1, .sigma = kChessSigma});
  const Mechanism& mechanism = *findMechanism(mechanismId);
  const FeatureMapSpec spec = classificationFeatureSpec(mechanism, Coupling::Iid, 128, *problem);
  std::uint64_t draw = 0;
  for (auto _ : state) {
    const auto score = scoreRandomFeatureClassifier(mechanism, spec, *problem, 5, draw++);
    benchmark::DoNotOptimize(score);
  }
}
BENCHMARK_CAPTURE(Chess_OneDraw, trig, "trig")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(Chess_OneDraw, pos, "pos")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(Chess_OneDraw, geom_plus, "geom-plus")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void Chess_SigmaSearch(benchmark::State& state) {
  const TrainTestData split =
      splitAndStandardise(loadUciDataset("chess"), {.trainFraction = 0.9, .seed = 1});
  for (auto _ : state)
    benchmark::DoNotOptimize(searchClassificationSigma(split.train, 1).sigma);
}
BENCHMARK(Chess_SigmaSearch)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rfscope
