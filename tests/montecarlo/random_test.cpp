// The counter-based generator and the variates built on it.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/random/distributions.h"
#include "core/random/philox_stream.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

TEST(PhiloxStream, StatelessNormalMatchesTheSequentialStream) {
  PhiloxStream stream(42, 5);
  for (std::uint64_t i = 0; i < 101; ++i)
    EXPECT_EQ(stream.normal(), normalAt(42, 5, i)) << i;
}

TEST(PhiloxStream, StreamsAndSeedsAreDistinct) {
  EXPECT_NE(normalAt(1, 0, 0), normalAt(1, 1, 0));
  EXPECT_NE(normalAt(1, 0, 0), normalAt(2, 0, 0));
  PhiloxStream late(1, 0, 3);  // starting at block 3 skips normals 0..5
  EXPECT_EQ(late.normal(), normalAt(1, 0, 6));
}

// Sample mean and variance of n draws agree with the exact ones within 99.9% normal intervals
// computed from the exact fourth central moment.
struct MomentCheck {
  double mean, variance, fourthCentral;
};

template <class Draw>
void expectMoments(Draw draw, const MomentCheck& exact, int n) {
  double sum = 0, sumSquares = 0;
  std::vector<double> values(n);
  for (int i = 0; i < n; ++i) {
    values[i] = draw(i);
    sum += values[i];
  }
  const double mean = sum / n;
  for (double v : values)
    sumSquares += (v - mean) * (v - mean);
  const double variance = sumSquares / (n - 1);
  const double z = 3.29;  // two-sided 99.9%
  EXPECT_NEAR(mean, exact.mean, z * std::sqrt(exact.variance / n));
  const double varianceSe = std::sqrt((exact.fourthCentral - exact.variance * exact.variance) / n);
  EXPECT_NEAR(variance, exact.variance, z * varianceSe);
}

TEST(Distributions, ChiSquareMoments) {
  for (double k : {1.0, 2.0, 7.0, 62.0, 1024.0}) {
    // χ²_k: mean k, variance 2k, fourth central moment 12k(k + 4).
    expectMoments(
        [&](int i) {
          PhiloxStream s(3, static_cast<std::uint64_t>(i));
          return chiSquareVariate(s, k);
        },
        {k, 2 * k, 12 * k * (k + 4)}, 200000);
  }
}

// chiSquareVariatePair: both variates have χ²_k's moments and are uncorrelated, including shapes
// where first tries often fail (k = 2: a third of them go on as new calls) and k < 2 (two calls).
TEST(Distributions, ChiSquarePairMomentsAndIndependence) {
  for (double k : {1.0, 2.0, 7.0, 64.0, 1024.0}) {
    const int n = 200000;
    std::vector<double> first(n), second(n);
    for (int i = 0; i < n; ++i) {
      TrialStream s(11, static_cast<std::uint64_t>(i));
      chiSquareVariatePair(s, k, first[static_cast<std::size_t>(i)],
                           second[static_cast<std::size_t>(i)]);
    }
    const MomentCheck exact{k, 2 * k, 12 * k * (k + 4)};
    expectMoments([&](int i) { return first[static_cast<std::size_t>(i)]; }, exact, n);
    expectMoments([&](int i) { return second[static_cast<std::size_t>(i)]; }, exact, n);
    double correlation = 0;
    for (int i = 0; i < n; ++i)
      correlation += (first[static_cast<std::size_t>(i)] - k) *
                     (second[static_cast<std::size_t>(i)] - k) / (2 * k);
    EXPECT_LT(std::fabs(correlation / n), 3.29 / std::sqrt(double(n))) << k;
  }
}

// h(x) = log of Marsaglia–Tsang's acceptance ratio at t = x / √(9d): d φ(t) with
// φ(t) = 3 [ln(1 + t) - t + t²/2 - t³/3], by its series where that would cancel.
long double marsagliaTsangLogRatio(long double d, long double x) {
  const long double t = x / std::sqrt(9.0L * d);
  long double phi = 0;
  if (std::fabs(t) < 0.25L) {
    long double power = t * t * t;
    for (int j = 4; j < 80; ++j) {
      power *= -t;
      phi -= 3.0L * power / j;
    }
  } else {
    phi = 3.0L * (std::log1p(t) - t + t * t / 2 - t * t * t / 3);
  }
  return d * phi;
}

// The squeeze accepts u < 1 - k x⁴ only where the logarithm test accepts every such u:
// log(1 - k x⁴) ≤ h(x) wherever v ≥ 1/8 and 1 - k x⁴ > 0 (the bound holds with a margin of 22% at
// d = 2/3, t = -1/2, so a coefficient 20% smaller fails here).
TEST(Distributions, GammaSqueezeAcceptsOnlyWhatTheLogarithmTestAccepts) {
  for (double d : {2.0 / 3, 1.0, 5.0 / 3, 31.0 + 2.0 / 3, 511.0 + 2.0 / 3}) {
    const double c = 1.0 / std::sqrt(9.0 * d);
    const double k = gammaSqueezeCoefficient(d);
    int checked = 0;
    for (int i = 0; i <= 20000; ++i) {
      const double x = -0.5 / c + (9.0 + 0.5 / c) * i / 20000.0;
      const double w = 1.0 + c * x;
      if (w * w * w < 0.125 || x == 0) continue;
      const long double bound = 1.0L - static_cast<long double>(k) * x * x * x * x;
      if (bound <= 0) continue;
      ++checked;
      EXPECT_LE(std::log(bound), marsagliaTsangLogRatio(d, x)) << "d " << d << " x " << x;
    }
    EXPECT_GT(checked, 1000) << d;
  }
}

// At χ²₆₄ (d = 31.7) the squeeze leaves the logarithm to 0.2% of tries (Marsaglia and Tsang's own
// squeeze: 10%): what keeps the SIMD trials' lanes together.
TEST(Distributions, GammaSqueezeLeavesFewTriesToTheLogarithm) {
  const double d = 32 - 1.0 / 3, c = 1.0 / std::sqrt(9.0 * d), k = gammaSqueezeCoefficient(d);
  TrialStream s(5, 0);
  const int n = 400000;
  int logarithm = 0;
  for (int i = 0; i < n; ++i) {
    const double x = s.normal(), u = s.uniform();
    const double w = 1.0 + c * x, v = w * w * w;
    if (!(v >= 0.125 && u < 1.0 - k * x * x * x * x)) ++logarithm;
  }
  // E[min(1, k x⁴)] ≈ 3k = 0.18%.
  EXPECT_NEAR(double(logarithm) / n, 3 * k, 3.29 * std::sqrt(3 * k / n));
}

TEST(Distributions, PoissonMoments) {
  for (double lambda : {0.05, 1.0, 11.5, 12.0, 300.0}) {
    // Poisson: mean = variance = λ, fourth central moment λ(1 + 3λ).
    expectMoments(
        [&](int i) {
          PhiloxStream s(4, static_cast<std::uint64_t>(i));
          return static_cast<double>(poissonVariate(s, lambda));
        },
        {lambda, lambda, lambda * (1 + 3 * lambda)}, 200000);
  }
}

TEST(Distributions, GeometricMoments) {
  for (double p : {0.9, 0.5, 0.05}) {
    // On {0, 1, ...}: mean q/p, variance q/p², fourth central moment q(p² + 9q)/p⁴ (q = 1-p).
    const double q = 1 - p;
    expectMoments(
        [&](int i) {
          PhiloxStream s(5, static_cast<std::uint64_t>(i));
          return static_cast<double>(geometricVariate(s, p));
        },
        {q / p, q / (p * p), q * (p * p + 9 * q) / (p * p * p * p)}, 200000);
  }
}

TEST(Distributions, TrialNormalsMomentsAndDistribution) {
  // Moments (normal: variance 1, fourth central moment 3) of TrialStream::normal and of both
  // values of PairedNormals, and Kolmogorov–Smirnov tests against Φ at level 0.001; the tail beyond
  // 3.5 has its exact mass (the logarithm's accuracy near u = 0 decides it).
  expectMoments(
      [&](int i) {
        TrialStream s(6, static_cast<std::uint64_t>(i));
        return s.normal();
      },
      {0.0, 1.0, 3.0}, 400000);
  TrialStream stream(6, 1u << 30);
  PairedNormals<TrialStream> pairs(stream);
  const int n = 1000000;
  std::vector<double> first(n / 2), second(n / 2), z;
  for (int i = 0; i < n / 2; ++i) {
    first[static_cast<std::size_t>(i)] = pairs.next();
    second[static_cast<std::size_t>(i)] = pairs.next();
  }
  double correlation = 0;
  for (int i = 0; i < n / 2; ++i)
    correlation += first[static_cast<std::size_t>(i)] * second[static_cast<std::size_t>(i)];
  correlation /= n / 2;
  EXPECT_LT(std::fabs(correlation), 3.29 * std::sqrt(2.0 / n));  // the pair is uncorrelated
  for (const std::vector<double>* half : {&first, &second}) {
    z = *half;
    std::sort(z.begin(), z.end());
    const double m = static_cast<double>(z.size());
    double d = 0;
    int tail = 0;
    for (std::size_t i = 0; i < z.size(); ++i) {
      const double cdf = 0.5 * std::erfc(-z[i] / std::sqrt(2.0));
      d = std::max({d, std::fabs(cdf - double(i) / m), std::fabs(cdf - double(i + 1) / m)});
      if (std::fabs(z[i]) > 3.5) ++tail;
    }
    EXPECT_LT(d, std::sqrt(-std::log(0.0005) / 2) / std::sqrt(m));
    const double p = std::erfc(3.5 / std::sqrt(2.0));
    EXPECT_NEAR(tail, m * p, 3.29 * std::sqrt(m * p));
  }
}

}  // namespace
}  // namespace rfscope
