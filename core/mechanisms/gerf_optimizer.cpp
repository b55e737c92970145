#include "core/mechanisms/gerf_optimizer.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/math/tools/minima.hpp>

#include "core/mechanisms/gerf.h"
#include "core/mechanisms/oprf.h"

namespace rfscope {
namespace {

constexpr int kBits = 40;  // Brent tolerance ~2^-40 relative (objective is flat there)
constexpr std::uintmax_t kIterations = 200;
constexpr double kImagLimit = 100.0;
constexpr double kMinGap = 1e-12, kMaxGap = 100.0;  // 1/8 - Re A

}  // namespace

GerfOptimum optimizeGerf(int dimension, double diffNormSquared, double sumNormSquared,
                         const GerfConstraints& constraints) {
  auto objective = [&](double ar, double ai, int s) {
    const double v = gerfLogExcess(dimension, diffNormSquared, sumNormSquared, {ar, ai}, s);
    return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
  };
  GerfOptimum best;
  best.logExcess = std::numeric_limits<double>::infinity();
  for (const int s : {1, -1}) {
    if (constraints.s && *constraints.s != s) continue;
    double ar = constraints.realA.value_or(0.0);
    double ai = constraints.imagA.value_or(0.0);
    if (!constraints.realA && s > 0 && !constraints.imagA.value_or(0.0))
      ar = -oprfRMinusOne(dimension, sumNormSquared) / 8;  // exact optimum for real A
    double value = objective(ar, ai, s);

    auto minimiseReal = [&] {
      // Over t = log(1/8 - Re A), which resolves both A → 1/8 and large negative A.
      std::uintmax_t iterations = kIterations;
      const auto r = boost::math::tools::brent_find_minima(
          [&](double t) { return objective(kGerfMaxRealA - std::exp(t), ai, s); },
          std::log(kMinGap), std::log(kMaxGap), kBits, iterations);
      if (r.second < value) {
        value = r.second;
        ar = kGerfMaxRealA - std::exp(r.first);
      }
    };
    auto minimiseImag = [&] {
      std::uintmax_t iterations = kIterations;
      const auto r = boost::math::tools::brent_find_minima(
          [&](double b) { return objective(ar, b, s); }, 0.0, kImagLimit, kBits, iterations);
      if (r.second < value) {
        value = r.second;
        ai = r.first;
      }
    };
    for (int round = 0; round < 8; ++round) {
      const double before = value;
      if (!constraints.realA) minimiseReal();
      if (!constraints.imagA) minimiseImag();
      if (!(value < before - 1e-12 * (1 + std::abs(before)))) break;
    }
    if (value < best.logExcess) best = {{ar, ai}, s, value};
  }
  return best;
}

}  // namespace rfscope
