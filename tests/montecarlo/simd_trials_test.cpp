// The SIMD trials: every lane equals the scalar trial (runFastTrial) to the last bit, on every
// instruction set Highway can run here (AVX-512, AVX2, SSE4 and the one-lane fallback), for
// i.i.d. and block plans of every cosine-free mechanism — including odd numbers of normals (a
// pair's second value carried over) and the χ² redraws, which small dimensions and many features
// reach often. And reproducibleExp, reproducibleLog and reproducibleSinCosOfTurns are within 1, 1
// and 3 ulp of the true values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_log.h"
#include "core/math/reproducible_sincos.h"
#include "core/montecarlo/simd_fast_trials.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

struct SimdCase {
  const char* mechanism;
  const char* coupling;
  int d;
  std::int64_t features;
};

// Every plan here takes the SIMD path: the equality below is not vacuous.
const SimdCase kCases[] = {
    {"pos", "iid", 64, 64},   {"pos", "orf", 64, 64},     {"pos", "simrf", 64, 64},
    {"pos", "iid", 1, 9},     {"pos-hyp", "iid", 5, 12},  {"pos-hyp", "orf", 5, 12},
    {"gerf", "iid", 4, 30},   {"gerf", "simrf", 3, 10},   {"oprf", "iid", 5, 40},
    {"oprf", "simrf", 7, 20}, {"oprf", "orf", 2, 5},      {"gerf", "orf", 16, 40},
    {"pos", "simrf", 2, 7},   {"pos-hyp", "simrf", 9, 30}};

// The targets of Highway's dispatch that this build compiled and this CPU runs, under
// RFSCOPE_SIMD's cap (the fallback is SCALAR in every build: RFSCOPE_HWY_DEFINITIONS).
std::vector<std::int64_t> targetsHere() {
  std::vector<std::int64_t> targets;
  for (std::int64_t t : {HWY_AVX3, HWY_AVX2, HWY_SSE4, HWY_EMU128, HWY_SCALAR})
    if (hwy::SupportedTargets() & HWY_TARGETS & t) targets.push_back(t);
  return targets;
}

TEST(SimdTrials, EveryLaneEqualsTheScalarTrialOnEveryTarget) {
  const std::string best = simdTargetName();  // first: applies RFSCOPE_SIMD's cap, if any
  const auto targets = targetsHere();
  ASSERT_FALSE(targets.empty());
  for (std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(simdTargetName());
    EXPECT_EQ(simdTargetName(), hwy::TargetName(target));
    for (const SimdCase& c : kCases) {
      SCOPED_TRACE(std::string(c.mechanism) + " / " + c.coupling + " d=" + std::to_string(c.d));
      MonteCarloRequest request =
          testing::makeRequest(c.mechanism, c.coupling, c.d, 0.5, c.features, 100);
      if (std::string(c.mechanism) == "gerf") {  // a real GERF that needs |ω|² (the optimum may
        request.parameters.set("A", -0.2);       // be complex: cosines)
        request.parameters.set("A_imag", 0.0);
        request.parameters.set("s", std::string("+1"));
      }
      const auto plan = makeSamplingPlan(request);
      ASSERT_TRUE(plan && plan->fast) << plan.reason();
      ASSERT_TRUE(simdComputesTrials(*plan->fast));
      const int count = 93;  // not a multiple of any vector length
      const std::uint64_t first = 1000;
      std::vector<SignedLog> values(count);
      std::vector<double> scratch;
      runFastTrialsSimd(*plan->fast, first, count, values.data(), scratch);
      std::vector<double> frame(static_cast<std::size_t>(fastTrialScratchSize(*plan->fast)) + 1);
      for (int i = 0; i < count; ++i) {
        const SignedLog expected =
            runFastTrial(*plan->fast, nullptr, nullptr, first + i, frame.data());
        EXPECT_EQ(values[i].sign, expected.sign) << "trial " << first + i;
        EXPECT_EQ(values[i].logAbs, expected.logAbs) << "trial " << first + i;
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_EQ(simdTargetName(), best);
}

TEST(SimdTrials, CoverTheCosineFreeIidAndBlockPlansOnly) {
  const auto covers = [](const char* mechanism, const char* coupling, int d) {
    const auto plan = makeSamplingPlan(testing::makeRequest(mechanism, coupling, d, 0.5, 8, 10));
    EXPECT_TRUE(plan && plan->fast) << plan.reason();
    return plan && plan->fast && simdComputesTrials(*plan->fast);
  };
  EXPECT_TRUE(covers("pos", "iid", 64));
  EXPECT_TRUE(covers("oprf", "simrf", 8));
  EXPECT_FALSE(covers("trig", "iid", 8));            // cosines
  EXPECT_FALSE(covers("pos", "orf-fast", 8));        // structured blocks
  EXPECT_FALSE(covers("hybrid-angular", "iid", 8));  // hybrids
  EXPECT_FALSE(covers("gerf", "iid", 3));            // χ²_1: Gamma(1/2) needs the boost
  EXPECT_FALSE(covers("pos", "orf", 1));             // χ_1 norms likewise
}

TEST(ReproducibleExp, IsWithinOneUlpOfTheExponential) {
  PhiloxStream stream(3, 11);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i % 2 ? -745.0 + 1454.7 * stream.uniform() : -40 + 41 * stream.uniform();
    const long double exact = std::exp(static_cast<long double>(x));
    const double value = reproducibleExp(x);
    const double rounded = static_cast<double>(exact);
    const double ulp = rounded < std::numeric_limits<double>::min()
                           ? std::numeric_limits<double>::denorm_min()
                           : std::nextafter(rounded, INFINITY) - rounded;
    worst = std::max(worst, static_cast<double>(std::fabs(value - exact) / ulp));
  }
  EXPECT_LT(worst, 1.0);
  EXPECT_EQ(reproducibleExp(0.0), 1.0);
  EXPECT_EQ(reproducibleExp(-INFINITY), 0.0);
  EXPECT_EQ(reproducibleExp(INFINITY), INFINITY);
  EXPECT_EQ(reproducibleExp(709.79), INFINITY);
  EXPECT_EQ(reproducibleExp(-745.2), 0.0);
  EXPECT_EQ(reproducibleExp(-745.1), std::numeric_limits<double>::denorm_min());
  EXPECT_TRUE(std::isnan(reproducibleExp(NAN)));
}

// The error of `value` against `exact` in units in the last place of the rounded exact value.
double ulpsFrom(double value, long double exact) {
  const double rounded = std::fabs(static_cast<double>(exact));
  return static_cast<double>(std::fabs(value - exact) /
                             (std::nextafter(rounded, INFINITY) - rounded));
}

TEST(ReproducibleLog, IsWithinOneUlpOfTheLogarithmOnTheUniformsRange) {
  PhiloxStream stream(5, 12);
  double worst = 0;
  for (int i = 0; i < 400000; ++i) {
    // Uniforms as the trials draw them, and far smaller ones down to 2^-600.
    const double u = i % 2 ? stream.uniform() : std::ldexp(stream.uniform(), -(i % 600));
    worst = std::max(worst, ulpsFrom(reproducibleLog(u), std::log(static_cast<long double>(u))));
  }
  EXPECT_LT(worst, 1.0);
  EXPECT_EQ(reproducibleLog(1.0), 0.0);
  EXPECT_EQ(reproducibleLog(0.5), -0.69314718055994530942);
  EXPECT_NEAR(reproducibleLog(0x1.0p-54), -54 * 0.69314718055994530942, 1e-13);
}

TEST(ReproducibleSinCos, IsWithinThreeUlpOfSineAndCosineOfTheTurn) {
  const long double twoPi = 6.283185307179586476925286766559L;
  PhiloxStream stream(5, 13);
  double worstSine = 0, worstCosine = 0, worstAbsolute = 0;
  for (int i = 0; i < 400000; ++i) {
    const double u = stream.uniform();
    double sine = 0, cosine = 0;
    reproducibleSinCosOfTurns(u, sine, cosine);
    const long double exactSine = std::sin(twoPi * u), exactCosine = std::cos(twoPi * u);
    worstAbsolute = std::max({worstAbsolute, static_cast<double>(std::fabs(sine - exactSine)),
                              static_cast<double>(std::fabs(cosine - exactCosine))});
    // Near a zero the angle's own rounding (one ulp of 2πu) dominates: absolute error there.
    if (std::fabs(exactSine) > 1e-3) worstSine = std::max(worstSine, ulpsFrom(sine, exactSine));
    if (std::fabs(exactCosine) > 1e-3)
      worstCosine = std::max(worstCosine, ulpsFrom(cosine, exactCosine));
  }
  EXPECT_LT(worstSine, 3.0);
  EXPECT_LT(worstCosine, 3.0);
  EXPECT_LT(worstAbsolute, 0x1.0p-52);
  for (int quarter = 0; quarter <= 4; ++quarter) {  // exact on the axes
    double sine = 0, cosine = 0;
    reproducibleSinCosOfTurns(0.25 * quarter, sine, cosine);
    EXPECT_EQ(sine, quarter == 1 ? 1.0 : quarter == 3 ? -1.0 : 0.0) << quarter;
    EXPECT_EQ(cosine, quarter % 4 == 0 ? 1.0 : quarter == 2 ? -1.0 : 0.0) << quarter;
  }
}

}  // namespace
}  // namespace rfscope
