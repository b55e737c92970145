// Feature-map timings by stage (run by hand: feature_map_benchmark --benchmark_format=json), for
// the Python comparison's case (tests/benchmarks/python/compare_feature_maps_with_numpy.py):
// X of 10000 × 64 mapped to M = 1024 frequencies, one thread. The stages: the projections ωᵀx
// (projectRows, and Eigen's product Ω Xᵀ for comparison), the functions over the projections
// (cos, e^x), and whole maps into row-major storage (queryRows), in double and in float.

#include <random>

#include <benchmark/benchmark.h>

#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/feature_map_kernels.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

constexpr Eigen::Index kRows = 10000, kDimension = 64, kFeatures = 1024;

Eigen::MatrixXd normals(Eigen::Index rows, Eigen::Index cols, double scale) {
  std::mt19937_64 engine(7);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = scale * normal(engine);
  return m;
}

const RowMajorMatrixXd& input() {
  static const RowMajorMatrixXd x = normals(kRows, kDimension, 0.2);
  return x;
}

template <class T>
void Projections(benchmark::State& state) {
  const PackedFrequencies<T> omega(normals(kFeatures, kDimension, 1.0), kDimension);
  std::vector<T> out(static_cast<std::size_t>(kRows * kFeatures));
  for (auto _ : state) {
    projectRows(omega, input().data(), kDimension, kRows, out.data(), kFeatures);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(Projections<double>)->Unit(benchmark::kMillisecond);
BENCHMARK(Projections<float>)->Unit(benchmark::kMillisecond);

void EigenProduct(benchmark::State& state) {
  const Eigen::MatrixXd omega = normals(kFeatures, kDimension, 1.0);
  const Eigen::MatrixXd transposed = input().transpose();
  Eigen::MatrixXd out(kFeatures, kRows);
  for (auto _ : state) {
    out.noalias() = omega * transposed;
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(EigenProduct)->Unit(benchmark::kMillisecond);

template <class T>
void Cosines(benchmark::State& state) {
  std::vector<T> values(static_cast<std::size_t>(kRows * kFeatures), T(0.3));
  const std::vector<T> phases(kFeatures, T(1.25));
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < kRows; ++i)
      shiftedCosines(values.data() + i * kFeatures, phases.data(), T(0.5), T(1), kFeatures);
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK(Cosines<double>)->Unit(benchmark::kMillisecond);
BENCHMARK(Cosines<float>)->Unit(benchmark::kMillisecond);

template <class T>
void Exponentials(benchmark::State& state) {
  std::vector<T> values(static_cast<std::size_t>(kRows * kFeatures), T(-0.3));
  for (auto _ : state) {
    for (Eigen::Index i = 0; i < kRows; ++i)
      exponentials(values.data() + i * kFeatures, T(0), T(0), T(0.5), T(1), T(1), kFeatures);
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK(Exponentials<double>)->Unit(benchmark::kMillisecond);
BENCHMARK(Exponentials<float>)->Unit(benchmark::kMillisecond);

template <class T>
void WholeMap(benchmark::State& state, const char* id) {
  const Mechanism& mechanism = *findMechanism(id);
  FeatureMapSpec spec;
  spec.features = kFeatures;
  spec.dimension = kDimension;
  const Eigen::VectorXd origin = Eigen::VectorXd::Zero(kDimension);
  spec.parameters = resolveParameters(mechanism, PairInput(origin, origin), {});
  TrialStream stream(3, 0);
  const auto map = mechanism.drawFeatureMap(spec, stream);
  if (!map) return state.SkipWithError("no feature map");
  const Eigen::Index width = (*map)->width();
  std::vector<T> values(static_cast<std::size_t>(kRows * width));
  Eigen::VectorXd logScale(kRows);
  for (auto _ : state) {
    (*map)->queryRows(InputRows(input()), FeatureRows<T>{values.data(), width, logScale.data()});
    benchmark::DoNotOptimize(values.data());
  }
}
void TrigPhaseDouble(benchmark::State& state) {
  WholeMap<double>(state, "trig-phase");
}
void TrigPhaseFloat(benchmark::State& state) {
  WholeMap<float>(state, "trig-phase");
}
void PosDouble(benchmark::State& state) {
  WholeMap<double>(state, "pos");
}
void PosFloat(benchmark::State& state) {
  WholeMap<float>(state, "pos");
}
void TrigDouble(benchmark::State& state) {
  WholeMap<double>(state, "trig");
}
void TrigFloat(benchmark::State& state) {
  WholeMap<float>(state, "trig");
}
BENCHMARK(TrigPhaseDouble)->Unit(benchmark::kMillisecond);
BENCHMARK(TrigPhaseFloat)->Unit(benchmark::kMillisecond);
BENCHMARK(PosDouble)->Unit(benchmark::kMillisecond);
BENCHMARK(PosFloat)->Unit(benchmark::kMillisecond);
BENCHMARK(TrigDouble)->Unit(benchmark::kMillisecond);
BENCHMARK(TrigFloat)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rfscope
