// The feature maps' vector kernels: the same bits on every instruction set Highway runs here
// (AVX-512, AVX2, SSE4 and the one-lane fallback) as their scalar definitions — projections summed
// in coordinate order, reproducibleSinCos, reproducibleExp — for whole feature maps and for rows
// and lengths that no vector length divides; the scalar functions within their ulp bounds; and
// float features within the documented distance of the double ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_exp_float.h"
#include "core/math/reproducible_trig.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/feature_map_kernels.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// The targets this build compiled and this CPU runs (the fallback is SCALAR in every build:
// RFSCOPE_HWY_DEFINITIONS).
std::vector<std::int64_t> targetsHere() {
  std::vector<std::int64_t> targets;
  for (std::int64_t t : {HWY_AVX3, HWY_AVX2, HWY_SSE4, HWY_EMU128, HWY_SCALAR})
    if (hwy::SupportedTargets() & HWY_TARGETS & t) targets.push_back(t);
  return targets;
}

// Runs f once per target, restoring Highway's own choice afterwards.
template <class F>
void onEveryTarget(const F& f) {
  const auto targets = targetsHere();
  ASSERT_GE(targets.size(), 2u);  // at least one SIMD set and the fallback
  for (std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    f();
  }
  hwy::SetSupportedTargetsForTest(0);
}

Eigen::MatrixXd normals(Eigen::Index rows, Eigen::Index cols, double scale, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = scale * normal(engine);
  return m;
}

template <class T>
void expectSameBits(const std::vector<T>& actual, const std::vector<T>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (!(actual[i] == expected[i] || (std::isnan(actual[i]) && std::isnan(expected[i])))) {
      ADD_FAILURE() << "entry " << i << ": " << actual[i] << " != " << expected[i];
      return;
    }
}

template <class T>
void projectionsAreOrderedSums() {
  // M and L that no tile, panel or vector length divides; d = 1 and a d past a panel's depth.
  for (const auto& shape : {std::tuple<int, int, int>{7, 45, 13}, {1, 3, 5}, {64, 200, 9}}) {
    // Plain copies, not structured bindings: the lambdas below capture them (clang 14 cannot).
    const int d = std::get<0>(shape), m = std::get<1>(shape), rows = std::get<2>(shape);
    SCOPED_TRACE("d=" + std::to_string(d) + " M=" + std::to_string(m));
    const Eigen::MatrixXd omega = normals(m, d + 2, 1.0, 1);  // n > d columns: the first d used
    const RowMajorMatrixXd x = normals(rows, d, 3.0, 2);
    std::vector<T> expected(static_cast<std::size_t>(rows * m));
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < m; ++k) {
        T sum = 0;
        for (int l = 0; l < d; ++l)
          sum = sum + static_cast<T>(x(i, l)) * static_cast<T>(omega(k, l));
        expected[static_cast<std::size_t>(i * m + k)] = sum;
      }
    const PackedFrequencies<T> packed(omega, d);
    onEveryTarget([&] {
      // Written at a stride wider than M, as into a (cos, sin) row; NaN marks what must stay.
      const Eigen::Index stride = m + 3;
      std::vector<T> out(static_cast<std::size_t>(rows * stride),
                         std::numeric_limits<T>::quiet_NaN());
      projectRows(packed, x.data(), d, rows, out.data(), stride);
      std::vector<T> got;
      for (int i = 0; i < rows; ++i) {
        for (int k = 0; k < m; ++k)
          got.push_back(out[static_cast<std::size_t>(i * stride + k)]);
        for (int k = m; k < stride; ++k)
          EXPECT_TRUE(std::isnan(out[static_cast<std::size_t>(i * stride + k)]));
      }
      expectSameBits(got, expected);
    });
  }
}

TEST(FeatureMapKernels, ProjectionsAreTheOrderedSumsOnEveryTarget) {
  projectionsAreOrderedSums<double>();
  projectionsAreOrderedSums<float>();
}

template <class T>
void functionsAreTheScalarOnesOnEveryTarget() {
  // Angles and exponents over the ranges met, and past the reductions' ranges.
  std::vector<T> p, phases, constants;
  std::mt19937_64 engine(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double scale : {1.0, 30.0, 700.0, 9000.0, 5e6, 1e17})
    for (int i = 0; i < 37; ++i) {
      p.push_back(static_cast<T>(scale * uniform(engine)));
      phases.push_back(static_cast<T>(3.0 * uniform(engine) + 3.0));
      constants.push_back(static_cast<T>(uniform(engine)));
    }
  const Eigen::Index n = static_cast<Eigen::Index>(p.size());
  const T scale = static_cast<T>(0.375), b = static_cast<T>(0.75), row = static_cast<T>(-0.5);
  const T rescale = 8;
  std::vector<T> cosines(p.size()), exps(p.size()), re(p.size()), im(p.size()), re1(p.size()),
      im1(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) {
    cosines[k] = scale * reproducibleCos(static_cast<T>(p[k] + phases[k])) * rescale;
    const T e = p[k] * b + (constants[k] + row);
    exps[k] = reproducibleExp(static_cast<T>((e - T(1)) - T(0.5))) * T(0.25) * scale * rescale;
    T sine = 0, cosine = 0;
    reproducibleSinCos(static_cast<T>(p[k] * b + phases[k]), sine, cosine);
    const T magnitude = reproducibleExp(static_cast<T>((e - T(1)) - T(0.5))) * T(0.25) * scale;
    re[k] = magnitude * cosine * rescale;
    im[k] = T(-1) * magnitude * sine * rescale;
    re1[k] = scale * cosine * rescale;
    im1[k] = T(-1) * scale * sine * rescale;
  }
  onEveryTarget([&] {
    std::vector<T> v = p;
    shiftedCosines(v.data(), phases.data(), scale, rescale, n);
    expectSameBits(v, cosines);
    std::vector<T> e(p.size());
    T smallest = std::numeric_limits<T>::infinity(), largest = -smallest;
    affineExponents(p.data(), b, constants.data(), row, e.data(), n - 5, smallest, largest);
    T low = std::numeric_limits<T>::infinity(), high = -low;
    for (Eigen::Index k = 0; k < n - 5; ++k) {
      const T expected = p[k] * b + (constants[k] + row);
      ASSERT_EQ(e[k], expected);
      low = std::min(low, expected);
      high = std::max(high, expected);
    }
    EXPECT_EQ(smallest, low);
    EXPECT_EQ(largest, high);
    affineExponents(p.data(), b, constants.data(), row, e.data(), n, smallest, largest);
    std::vector<T> ex = e;
    exponentials(ex.data(), T(1), T(0.5), T(0.25), scale, rescale, n);
    expectSameBits(ex, exps);
    std::vector<T> r(p.size()), i(p.size());
    complexExponentials(p.data(), e.data(), T(1), T(0.5), T(0.25), scale, b, phases.data(), T(-1),
                        rescale, r.data(), i.data(), n);
    expectSameBits(r, re);
    expectSameBits(i, im);
    sinesAndCosines(p.data(), scale, b, phases.data(), T(-1), rescale, r.data(), i.data(), n);
    expectSameBits(r, re1);
    expectSameBits(i, im1);
  });
}

TEST(FeatureMapKernels, ExpCosAndSinAreTheScalarFunctionsOnEveryTarget) {
  functionsAreTheScalarOnesOnEveryTarget<double>();
  functionsAreTheScalarOnesOnEveryTarget<float>();
}

// Whole maps: rows in blocks of every length give the same rows on every target, and the float
// features are within the documented distance of the double ones.
struct MapCase {
  const char* mechanism;
  Kernel kernel;
};

std::unique_ptr<FeatureMap> drawMap(const MapCase& c, int d, std::int64_t m) {
  const Mechanism* mechanism = findMechanism(c.mechanism);
  EXPECT_NE(mechanism, nullptr);
  FeatureMapSpec spec;
  spec.kernel = c.kernel;
  spec.features = m;
  spec.dimension = d;
  const Eigen::VectorXd origin = Eigen::VectorXd::Zero(d);
  spec.parameters = resolveParameters(*mechanism, PairInput(origin, origin), {});
  TrialStream stream(11, 0);
  auto map = mechanism->drawFeatureMap(spec, stream);
  EXPECT_TRUE(map) << map.reason();
  return std::move(*map);
}

const MapCase kMapCases[] = {{"trig-phase", Kernel::Gaussian}, {"trig-phase", Kernel::Softmax},
                             {"trig", Kernel::Gaussian},       {"pos", Kernel::Gaussian},
                             {"pos", Kernel::Softmax},         {"oprf", Kernel::Gaussian},
                             {"pos-hyp", Kernel::Softmax}};

TEST(FeatureMapKernels, FeatureMapsAreTheSameOnEveryTargetAndForEveryRowSplit) {
  const int d = 5;
  const std::int64_t m = 37;
  const RowMajorMatrixXd x = normals(70, d, 0.7, 4);
  for (const MapCase& c : kMapCases) {
    SCOPED_TRACE(c.mechanism);
    const auto map = drawMap(c, d, m);
    const Eigen::Index width = map->width();
    // The reference: the C++ map (FeatureMatrix) on the best target.
    const FeatureMatrix reference = map->keys(Eigen::MatrixXd(x));
    onEveryTarget([&] {
      RowMajorMatrixXd values(x.rows(), width);
      Eigen::VectorXd logScale(x.rows());
      for (Eigen::Index first = 0; first < x.rows(); first += 23) {  // blocks of 23 rows
        const Eigen::Index rows = std::min<Eigen::Index>(23, x.rows() - first);
        map->keyRows(
            InputRows(x.middleRows(first, rows)),
            FeatureRows<double>{values.data() + first * width, width, logScale.data() + first});
      }
      EXPECT_TRUE(values == reference.values) << "values differ";
      EXPECT_TRUE(logScale == reference.logScale) << "log-scales differ";
    });
    // Float: the same float bits on every target too.
    std::vector<float> first;
    onEveryTarget([&] {
      std::vector<float> values(static_cast<std::size_t>(x.rows() * width));
      Eigen::VectorXd logScale(x.rows());
      map->keyRows(InputRows(x), FeatureRows<float>{values.data(), width, logScale.data()});
      if (first.empty())
        first = values;
      else
        expectSameBits(values, first);
    });
  }
}

// float features against the double ones: |f₃₂ - f₆₄| ≤ (8 + d·S)·2^-24 · max |f| of the row, S
// the row's largest Σ_l |ω_l x_l| + |constants| (the exponent's or angle's size), as
// feature_map.h states the error.
TEST(FeatureMapKernels, FloatFeaturesAreWithinTheirRoundingOfTheDoubleOnes) {
  const int d = 64;
  const std::int64_t m = 256;
  for (double scale : {0.1, 0.5}) {
    const RowMajorMatrixXd x = normals(40, d, scale, 5);
    for (const MapCase& c : kMapCases) {
      SCOPED_TRACE(std::string(c.mechanism) + " scale " + std::to_string(scale));
      const auto map = drawMap(c, d, m);
      const Eigen::Index width = map->width();
      RowMajorMatrixXd exact(x.rows(), width);
      Eigen::VectorXd exactScale(x.rows()), floatScale(x.rows());
      std::vector<float> rounded(static_cast<std::size_t>(x.rows() * width));
      map->queryRows(InputRows(x), FeatureRows<double>{exact.data(), width, exactScale.data()});
      map->queryRows(InputRows(x), FeatureRows<float>{rounded.data(), width, floatScale.data()});
      double worst = 0;
      for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double size = 1.0 + x.row(i).cwiseAbs().sum() * 6.0;  // |ω_l| ≲ 6 here
        const double bound = (8.0 + d * size) * std::ldexp(1.0, -24);
        const double largest = exact.row(i).cwiseAbs().maxCoeff();
        for (Eigen::Index k = 0; k < width; ++k) {
          const double f64 = exact(i, k) * std::exp(exactScale[i]);
          const double f32 =
              rounded[static_cast<std::size_t>(i * width + k)] * std::exp(floatScale[i]);
          const double error = std::abs(f32 - f64) / (largest * std::exp(exactScale[i]));
          worst = std::max(worst, error / bound);
          ASSERT_LE(error, bound) << "row " << i << " column " << k;
        }
      }
      RecordProperty(std::string(c.mechanism) + "_worst_over_bound", std::to_string(worst));
    }
  }
}

// The scalar functions: within 2 ulp (sin, cos; float: of the double result rounded) and 1 ulp
// (float e^x, against the double one) over the reductions' ranges.
TEST(ReproducibleTrig, SinAndCosAreWithinTwoUlp) {
  std::mt19937_64 engine(9);
  for (double range : {1.0, 100.0, 1e6}) {
    std::uniform_real_distribution<double> uniform(-range, range);
    for (int i = 0; i < 20000; ++i) {
      const double x = uniform(engine);
      double s = 0, c = 0;
      reproducibleSinCos(x, s, c);
      const long double ls = std::sin(static_cast<long double>(x));
      const long double lc = std::cos(static_cast<long double>(x));
      const double ulp = std::ldexp(1.0, -52);
      ASSERT_LE(std::abs(s - ls), 2 * ulp * std::max(std::abs(ls), 0.5L) + 1e-300) << x;
      ASSERT_LE(std::abs(c - lc), 2 * ulp * std::max(std::abs(lc), 0.5L) + 1e-300) << x;
      if (std::abs(x) < 8192) {
        const float xf = static_cast<float>(x);
        float sf = 0, cf = 0;
        reproducibleSinCos(xf, sf, cf);
        const double fulp = std::ldexp(1.0, -23);
        ASSERT_LE(std::abs(sf - std::sin(static_cast<double>(xf))), 2 * fulp) << xf;
        ASSERT_LE(std::abs(cf - std::cos(static_cast<double>(xf))), 2 * fulp) << xf;
      }
    }
  }
}

TEST(ReproducibleTrig, FloatExpIsWithinOneUlp) {
  for (float x = -103.0f; x < 88.5f; x += 0.0173f) {
    const double exact = std::exp(static_cast<double>(x));
    const float value = reproducibleExp(x);
    const double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
    if (exact >= std::numeric_limits<float>::min()) {
      ASSERT_LE(std::abs(value - exact), 1.0 * ulp) << x;
    }
  }
  EXPECT_EQ(reproducibleExp(-200.0f), 0.0f);
  EXPECT_EQ(reproducibleExp(100.0f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(reproducibleExp(0.0f), 1.0f);
}

}  // namespace
}  // namespace rfscope
