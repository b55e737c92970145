// The C++ loop that rfscope.variance vectorises, alone: evaluateAnalytic at 10,000 pairs, one
// thread (run by hand, or by compare_with_cpp.py, which times the Python call on the same sizes:
// variance_loop_benchmark --benchmark_format=json). Target (issue 17): the Python call within 2×.

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

constexpr int kPairs = 10000;
constexpr int kDimension = 16;
constexpr std::int64_t kFeatures = 64;

// Pairs of N(0, 0.3²) entries, as compare_with_cpp.py draws them.
std::vector<Eigen::VectorXd> randomPoints(std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 0.3);
  std::vector<Eigen::VectorXd> points(kPairs, Eigen::VectorXd(kDimension));
  for (auto& p : points)
    for (int l = 0; l < kDimension; ++l)
      p[l] = normal(rng);
  return points;
}

void VarianceLoop(benchmark::State& state, const std::string& mechanism,
                  const std::string& coupling) {
  std::mt19937_64 rng(17);
  const auto xs = randomPoints(rng);
  const auto ys = randomPoints(rng);
  EstimatorSpec spec;
  spec.mechanism = findMechanism(mechanism);
  spec.coupling = parseCoupling(coupling, "coupling");
  spec.features = kFeatures;
  std::vector<double> logVariance(kPairs);
  for (auto _ : state) {
    for (int i = 0; i < kPairs; ++i)
      logVariance[i] = evaluateAnalytic(spec, xs[i], ys[i]).variance->logVariance;
    benchmark::DoNotOptimize(logVariance.data());
  }
  state.SetItemsProcessed(state.iterations() * kPairs);
}

BENCHMARK_CAPTURE(VarianceLoop, pos_iid, "pos", "iid")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(VarianceLoop, trig_iid, "trig", "iid")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(VarianceLoop, oprf_iid, "oprf", "iid")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(VarianceLoop, pos_orf, "pos", "orf")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rfscope
