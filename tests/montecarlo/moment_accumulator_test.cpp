// Mergeable log-domain moments.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/montecarlo/moment_accumulator.h"
#include "core/random/philox_stream.h"

namespace rfscope {
namespace {

struct Exact {
  long double mean = 0, m2 = 0, m4 = 0;
};

Exact twoPass(const std::vector<double>& v) {
  Exact e;
  for (double x : v)
    e.mean += x;
  e.mean /= v.size();
  for (double x : v) {
    const long double d = x - e.mean;
    e.m2 += d * d;
    e.m4 += d * d * d * d;
  }
  return e;
}

TEST(MomentAccumulator, SequentialAndMergedAgreeWithTwoPass) {
  PhiloxStream s(1, 0);
  std::vector<double> values(10000);
  for (double& v : values)
    v = 3 + std::exp(s.normal());
  MomentAccumulator sequential, merged, part;
  for (std::size_t i = 0; i < values.size(); ++i) {
    sequential.add(SignedLog::fromValue(values[i]));
    part.add(SignedLog::fromValue(values[i]));
    if (i % 37 == 36) {
      merged.merge(part);
      part = {};
    }
  }
  merged.merge(part);
  const Exact exact = twoPass(values);
  for (const auto* m : {&sequential, &merged}) {
    EXPECT_EQ(m->count, 10000);
    const double scale = std::exp(m->logScale);
    EXPECT_NEAR(m->mean * scale, static_cast<double>(exact.mean), 1e-13 * exact.mean);
    EXPECT_NEAR(std::exp(m->logVariance()), static_cast<double>(exact.m2 / 9999),
                1e-12 * exact.m2 / 9999);
    EXPECT_NEAR(m->m4 * std::pow(scale, 4), static_cast<double>(exact.m4), 1e-11 * exact.m4);
  }
}

TEST(MomentAccumulator, ValuesBeyondDoubleRangeKeepTheirVariance) {
  // Values e^800 · (1 ± δ): the variance e^1600 δ² (n/(n-1)) overflows a double but not its log.
  MomentAccumulator m;
  const double delta = 0.25;
  for (int i = 0; i < 1000; ++i)
    m.add({800 + std::log1p(i % 2 == 0 ? delta : -delta), 1});
  EXPECT_NEAR(m.logVariance(), 1600 + 2 * std::log(delta) + std::log(1000.0 / 999), 1e-12);
  EXPECT_NEAR(m.logMean().logAbs, 800, 1e-13);
}

TEST(MomentAccumulator, TinyValuesAreNotSwampedAndHugeOnesRescale) {
  // First 500 tiny values, then one huge: the huge one dominates and the result matches the
  // exact log variance; then the tiny values alone give e^-1400 scale variance.
  MomentAccumulator tiny;
  for (int i = 0; i < 500; ++i)
    tiny.add({-700.0 + (i % 2), 1});
  const double a = std::exp(0.0), b = std::exp(1.0);  // values e^-700·{1, e}
  const double exactLogVar = -1400 + std::log((b - a) * (b - a) / 4 * 500 / 499);
  EXPECT_NEAR(tiny.logVariance(), exactLogVar, 1e-12);
  MomentAccumulator huge = tiny;
  huge.add({700, -1});
  // With n = 501 and the tiny values zero at this scale, the variance is e^1400 / n.
  EXPECT_NEAR(huge.logVariance(), 1400 - std::log(501.0), 1e-12);
  EXPECT_EQ(huge.minimum.sign, -1);
  EXPECT_EQ(huge.largest.logAbs, 700);
}

TEST(MomentAccumulator, ZerosAndSigns) {
  MomentAccumulator m;
  m.add({});
  m.add(SignedLog::fromValue(-2));
  m.add(SignedLog::fromValue(2));
  EXPECT_EQ(m.count, 3);
  EXPECT_NEAR(std::exp(m.logVariance()), 4.0, 1e-15);
  EXPECT_EQ(m.logMean().sign, 0);
}

}  // namespace
}  // namespace rfscope
