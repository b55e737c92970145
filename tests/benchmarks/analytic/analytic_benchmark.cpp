// Analytic layer timings (run by hand: analytic_benchmark --benchmark_format=json).
// Targets (issue 3): one-feature closed forms < 1 µs each (OneFeature/d64/*, GeomRF included);
// conformity series < 20 µs at d = 64, v = 6; the 200-σ × 100-pair × 10-mechanism variance-vs-sigma
// table < 50 ms on one core (VarianceVsSigma/200x100/10-mechanisms, its per-σ data-driven
// parameters included).

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <random>

#include "core/couplings/positive_conformity.h"
#include "core/experiments/variance_vs_sigma.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

Eigen::VectorXd randomVector(std::mt19937_64& rng, int d, double sigma) {
  std::normal_distribution<double> normal(0.0, sigma);
  Eigen::VectorXd v(d);
  for (int l = 0; l < d; ++l)
    v[l] = normal(rng);
  return v;
}

const std::vector<std::string> kMechanisms{"trig",      "pos",           "pos-hyp", "gerf",
                                           "oprf",      "pois",          "geom",    "pois-plus",
                                           "geom-plus", "hybrid-angular"};

// Explicit parameters: the closed form alone. "auto" variants include the optimisers.
ParameterSet fixedParameters(const std::string& id) {
  ParameterSet p;
  if (id == "gerf") {
    p.set("A", -0.1);
    p.set("A_imag", 0.05);
    p.set("s", std::string("+1"));
  } else if (id == "geom" || id == "geom-plus") {
    p.set("p", 0.5);
  }
  return p;
}

void oneFeature(benchmark::State& state, const std::string& id, bool automatic) {
  std::mt19937_64 rng(1);
  const Eigen::VectorXd x = randomVector(rng, 64, 0.5), y = randomVector(rng, 64, 0.5);
  const Mechanism* mechanism = findMechanism(id);
  const ParameterSet params = automatic ? ParameterSet() : fixedParameters(id);
  for (auto _ : state) {
    const VarianceResult r = mechanism->logVariance(PairInput(x, y), params);
    benchmark::DoNotOptimize(r.logVariance);
  }
}

void conformity(benchmark::State& state, Coupling kind) {
  const int d = static_cast<int>(state.range(0));
  const double v = static_cast<double>(state.range(1));
  for (auto _ : state)
    benchmark::DoNotOptimize(positiveConformity(kind, d, v * v)->logConformity);
}

// The per-σ share of the variance-vs-sigma table: every mechanism's data-driven parameters at one σ
// (CRT eqs. 8, 12, 14, from 100 pairs' statistics; GERF and GeomRF optimised numerically).
void dataDrivenParametersOf100Pairs(benchmark::State& state) {
  std::mt19937_64 rng(2);
  std::vector<Eigen::VectorXd> xs, ys;
  for (int p = 0; p < 100; ++p) {
    xs.push_back(randomVector(rng, 64, 0.5));
    ys.push_back(randomVector(rng, 64, 0.5));
  }
  std::vector<const Mechanism*> mechanisms;
  for (const auto& id : kMechanisms)
    mechanisms.push_back(findMechanism(id));
  const ScalableStatistics statistics(xs, ys);
  for (auto _ : state)
    benchmark::DoNotOptimize(dataDrivenParameters(mechanisms, statistics, 1.0).size());
}

void varianceVsSigma(benchmark::State& state, std::vector<std::string> mechanisms) {
  const tbb::global_control oneCore(tbb::global_control::max_allowed_parallelism, 1);
  const VarianceVsSigma experiment;
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  params.set("d", std::int64_t{64});
  params.set("sigma-min", 0.05);
  params.set("sigma-max", 1.0);
  params.set("sigma-steps", std::int64_t{200});
  params.set("pairs", std::int64_t{100});
  params.set("mechanisms", mechanisms);
  for (auto _ : state) {
    SilentRunContext context;
    benchmark::DoNotOptimize(experiment.run(params, context).table.columns.size());
  }
}

int registerAll() {
  for (const auto& id : kMechanisms) {
    benchmark::RegisterBenchmark(("OneFeature/d64/" + id).c_str(), oneFeature, id, false);
    if (id == "gerf" || id == "geom" || id == "geom-plus" || id == "pois" || id == "oprf")
      benchmark::RegisterBenchmark(("OneFeatureOptimised/d64/" + id).c_str(), oneFeature, id, true);
  }
  benchmark::RegisterBenchmark("Conformity/orf", conformity, Coupling::Orthogonal)
      ->Args({64, 6})
      ->Args({1024, 10})
      ->Args({3, 6});
  benchmark::RegisterBenchmark("Conformity/simrf", conformity, Coupling::Simplex)
      ->Args({64, 6})
      ->Args({1024, 10})
      ->Args({3, 6});
  benchmark::RegisterBenchmark("DataDrivenParameters/d64/100pairs/10-mechanisms",
                               dataDrivenParametersOf100Pairs);
  // The mechanisms without numerically optimised parameters, for comparison.
  benchmark::RegisterBenchmark("VarianceVsSigma/200x100/closed-forms", varianceVsSigma,
                               std::vector<std::string>{"trig", "pos", "pos-hyp", "oprf", "pois",
                                                        "pois-plus", "hybrid-angular"})
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("VarianceVsSigma/200x100/10-mechanisms", varianceVsSigma,
                               kMechanisms)
      ->Unit(benchmark::kMillisecond);
  return 0;
}

const int registered = registerAll();

}  // namespace
}  // namespace rfscope
