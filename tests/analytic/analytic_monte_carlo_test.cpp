// Monte Carlo confirmation of every closed form: a direct, deliberately naive sampler of each
// one-feature estimator (written here, independent of core/montecarlo), with a fixed seed. The
// sample variance s² of N draws has standard error √((m₄ - s⁴)/N) (m₄: sample fourth central
// moment); each closed form must lie inside the 99.9% interval s² ± 3.29·SE computed from the
// sample alone. Pairs are chosen where the fourth moment is finite (small |x|, |y|, Re A < 1/16).

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <numbers>

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/philox_stream.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

constexpr int kSamples = 200000;

struct SampleVariance {
  double variance, standardError;
};

// One draw of K̂ per call; the stream is the only source of randomness.
using Estimator = std::function<double(PhiloxStream&)>;

SampleVariance sampleVariance(const Estimator& estimator, std::uint64_t stream) {
  PhiloxStream rng(20240611, stream);
  std::vector<double> values(kSamples);
  double mean = 0;
  for (double& v : values) {
    v = estimator(rng);
    mean += v;
  }
  mean /= kSamples;
  double m2 = 0, m4 = 0;
  for (double v : values) {
    const double c = (v - mean) * (v - mean);
    m2 += c;
    m4 += c * c;
  }
  m2 /= kSamples;
  m4 /= kSamples;
  return {m2 * kSamples / (kSamples - 1.0), std::sqrt((m4 - m2 * m2) / kSamples)};
}

Eigen::VectorXd gaussianVector(PhiloxStream& rng, int d, double sigma) {
  Eigen::VectorXd v(d);
  for (int l = 0; l < d; ++l)
    v[l] = sigma * rng.normal();
  return v;
}

Eigen::VectorXd normalOmega(PhiloxStream& rng, int d) {
  return gaussianVector(rng, d, 1.0);
}

double varianceOf(const std::string& id, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                  const ParameterSet& params, ParameterSet* used = nullptr) {
  const VarianceResult r = findMechanism(id)->logVariance(PairInput(x, y), params);
  EXPECT_TRUE(r.logVariance) << id;
  if (used) *used = r.parametersUsed;
  return std::exp(*r.logVariance);
}

void expectInside(const std::string& label, double exact, const SampleVariance& s) {
  EXPECT_LE(std::abs(exact - s.variance), test::kZ999 * s.standardError)
      << label << ": closed form " << exact << ", sample " << s.variance << " ± "
      << test::kZ999 * s.standardError;
  // The interval must be informative, or the check proves nothing.
  EXPECT_LT(test::kZ999 * s.standardError, 0.2 * exact) << label;
}

class MonteCarloConfirmation : public ::testing::Test {
 protected:
  void SetUp() override {
    PhiloxStream rng(7, 0);
    x = gaussianVector(rng, d, 0.3);
    y = gaussianVector(rng, d, 0.3);
  }
  const int d = 5;
  Eigen::VectorXd x, y;
};

TEST_F(MonteCarloConfirmation, TrigPosAndHyperbolicPos) {
  const double s = x.squaredNorm() + y.squaredNorm();
  expectInside(
      "trig", varianceOf("trig", x, y, {}),
      sampleVariance([&](PhiloxStream& r) { return std::cos(normalOmega(r, d).dot(x - y)); }, 1));
  expectInside("pos", varianceOf("pos", x, y, {}),
               sampleVariance(
                   [&](PhiloxStream& r) { return std::exp(normalOmega(r, d).dot(x + y) - s); }, 2));
  expectInside(
      "pos-hyp", varianceOf("pos-hyp", x, y, {}),
      sampleVariance(
          [&](PhiloxStream& r) { return std::exp(-s) * std::cosh(normalOmega(r, d).dot(x + y)); },
          3));
}

// GERF straight from CRT eq. (4)-(5): Re(f⁽¹⁾f⁽²⁾) with principal roots, complex arithmetic.
double gerfSample(PhiloxStream& r, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                  std::complex<double> a, int s) {
  const int d = static_cast<int>(x.size());
  const Eigen::VectorXd w = normalOmega(r, d);
  const std::complex<double> b = std::sqrt(static_cast<double>(s) * (1.0 - 4.0 * a));
  const double c = -(s + 1) / 2.0;
  const std::complex<double> dd = std::pow(std::pow(1.0 - 4.0 * a, 0.25), d);
  const std::complex<double> f1 =
      dd * std::exp(a * w.squaredNorm() + b * w.dot(x) + c * x.squaredNorm());
  const std::complex<double> f2 =
      dd * std::exp(a * w.squaredNorm() + double(s) * b * w.dot(y) + c * y.squaredNorm());
  return (f1 * f2).real();
}

TEST_F(MonteCarloConfirmation, GerfWithComplexAAndOprf) {
  int stream = 10;
  for (const auto& [a, s] : {std::pair{std::complex<double>(-0.1, 0.2), -1},
                             std::pair{std::complex<double>(0.03, -0.05), 1},
                             std::pair{std::complex<double>(-0.3, 0.0), 1}}) {
    ParameterSet p;
    p.set("A", a.real());
    p.set("A_imag", a.imag());
    p.set("s", std::string(s > 0 ? "+1" : "-1"));
    expectInside(
        "gerf", varianceOf("gerf", x, y, p),
        sampleVariance([&, a = a, s = s](PhiloxStream& r) { return gerfSample(r, x, y, a, s); },
                       ++stream));
  }
  ParameterSet used;
  const double exact = varianceOf("oprf", x, y, {}, &used);
  const double aStar = used.real("A");
  expectInside("oprf", exact,
               sampleVariance(
                   [&](PhiloxStream& r) {
                     return gerfSample(r, x, y, {aStar, 0.0}, 1);
                   },
                   20));
}

std::int64_t poisson(PhiloxStream& r, double lambda) {
  double u = r.uniform(), p = std::exp(-lambda);
  std::int64_t k = 0;
  while (u > p && p > 0) {
    u -= p;
    ++k;
    p *= lambda / static_cast<double>(k);
  }
  return k;
}

// CRT eq. (10) with Poisson or geometric ω_l, product of the two feature values.
double discreteSample(PhiloxStream& r, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                      bool poissonLaw, double parameter) {
  double logAbs = -0.5 * (x.squaredNorm() + y.squaredNorm());
  double sign = 1;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const std::int64_t k =
        poissonLaw
            ? poisson(r, parameter)
            : static_cast<std::int64_t>(std::floor(std::log(r.uniform()) / std::log1p(-parameter)));
    const double kk = static_cast<double>(k);
    const double logPk = poissonLaw ? -parameter + kk * std::log(parameter) - std::lgamma(kk + 1)
                                    : std::log(parameter) + kk * std::log1p(-parameter);
    const double a = x[l] * y[l];
    if (k > 0) {
      if (a == 0) return 0;
      logAbs += kk * std::log(std::abs(a));
      if (a < 0 && (k % 2)) sign = -sign;
    }
    logAbs += -std::lgamma(kk + 1) - logPk;
  }
  return sign * std::exp(logAbs);
}

TEST_F(MonteCarloConfirmation, DiscretelyInducedAndPositiveVariants) {
  Eigen::VectorXd xs, ys;
  positiveShift(x, y, 0.1, xs, ys);
  ParameterSet used;
  double exact = varianceOf("pois", x, y, {}, &used);
  const double lambda = used.real("lambda");
  expectInside(
      "pois", exact,
      sampleVariance([&](PhiloxStream& r) { return discreteSample(r, x, y, true, lambda); }, 30));
  ParameterSet fixedP;
  fixedP.set("p", 0.4);
  expectInside(
      "geom", varianceOf("geom", x, y, fixedP),
      sampleVariance([&](PhiloxStream& r) { return discreteSample(r, x, y, false, 0.4); }, 31));
  exact = varianceOf("geom", x, y, {}, &used);
  const double pStar = used.real("p");
  expectInside(
      "geom p*", exact,
      sampleVariance([&](PhiloxStream& r) { return discreteSample(r, x, y, false, pStar); }, 32));
  exact = varianceOf("pois-plus", x, y, {}, &used);
  const double lambdaPlus = used.real("lambda");
  expectInside(
      "pois-plus", exact,
      sampleVariance([&](PhiloxStream& r) { return discreteSample(r, xs, ys, true, lambdaPlus); },
                     33));
  exact = varianceOf("geom-plus", x, y, {}, &used);
  const double pPlus = used.real("p");
  expectInside(
      "geom-plus", exact,
      sampleVariance([&](PhiloxStream& r) { return discreteSample(r, xs, ys, false, pPlus); }, 34));
}

TEST_F(MonteCarloConfirmation, AngularHybridIndependentAndShared) {
  // x ⊥ y with unequal norms: the shared-ω covariance ∝ K²(1 - cos(|x|² - |y|²)) is then about a
  // third of the variance, while |x + y|² ≈ 1 keeps the fourth moments small.
  Eigen::VectorXd xh = Eigen::VectorXd::Zero(d), yh = Eigen::VectorXd::Zero(d);
  xh[0] = 0.95;
  yh[1] = 0.3;
  const double s = xh.squaredNorm() + yh.squaredNorm();
  for (const bool shared : {false, true}) {
    ParameterSet p;
    p.set("n", std::int64_t{4});
    p.set("shared", shared);
    const double exact = varianceOf("hybrid-angular", xh, yh, p);
    expectInside(shared ? "hybrid shared" : "hybrid independent", exact,
                 sampleVariance(
                     [&](PhiloxStream& r) {
                       int separated = 0;
                       for (int k = 0; k < 4; ++k) {
                         const Eigen::VectorXd tau = normalOmega(r, d);
                         separated += (tau.dot(xh) > 0) != (tau.dot(yh) > 0);
                       }
                       const double lambda = separated / 4.0;
                       const Eigen::VectorXd w1 = normalOmega(r, d);
                       const Eigen::VectorXd w2 = shared ? w1 : normalOmega(r, d);
                       const double pos = std::exp(-s) * std::cosh(w1.dot(xh + yh));
                       const double trig = std::cos(w2.dot(xh - yh));
                       return lambda * pos + (1 - lambda) * trig;
                     },
                     shared ? 41 : 40));
  }
}

TEST_F(MonteCarloConfirmation, GaussianHybridIndependentAndShared) {
  // The pair of the angular test. With b = 1, n = 4 the cross moment E[λ̂(1-λ̂)] is positive (the
  // shared covariance lowers the variance); with b = 0.5, n = 1 it is negative (it raises it), and
  // λ̂ > 1 is frequent.
  Eigen::VectorXd xh = Eigen::VectorXd::Zero(d), yh = Eigen::VectorXd::Zero(d);
  xh[0] = 0.95;
  yh[1] = 0.3;
  const double s = xh.squaredNorm() + yh.squaredNorm();
  int stream = 50;
  for (const auto& [n, bandwidth] : {std::pair{4, 1.0}, std::pair{1, 0.5}}) {
    for (const bool shared : {false, true}) {
      ParameterSet p;
      p.set("n", std::int64_t{n});
      p.set("bandwidth", bandwidth);
      p.set("shared", shared);
      const double exact = varianceOf("hybrid-gaussian", xh, yh, p);
      expectInside("gaussian hybrid n=" + std::to_string(n) + (shared ? " shared" : ""), exact,
                   sampleVariance(
                       [&, n = n, bandwidth = bandwidth](PhiloxStream& r) {
                         double cosines = 0;
                         for (int k = 0; k < n; ++k)
                           cosines += std::cos(normalOmega(r, d).dot(xh - yh) / bandwidth);
                         const double lambda = 1 - cosines / n;
                         const Eigen::VectorXd w1 = normalOmega(r, d);
                         const Eigen::VectorXd w2 = shared ? w1 : normalOmega(r, d);
                         const double pos = std::exp(-s) * std::cosh(w1.dot(xh + yh));
                         const double trig = std::cos(w2.dot(xh - yh));
                         return lambda * pos + (1 - lambda) * trig;
                       },
                       ++stream));
    }
  }
}

}  // namespace
}  // namespace rfscope
