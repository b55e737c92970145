// The fast path (projections only) and the brute-force path (full ω, Haar QR) sample the same
// distribution: equal means and variances within 99.9% intervals, and a two-sample
// Kolmogorov–Smirnov test at level 0.001, for every continuous mechanism and coupling.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/montecarlo/fast_trial.h"
#include "core/montecarlo/moment_accumulator.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

TEST(SimplexBlock, RowsAreUnitWithEqualObtuseAnglesAndSumToZero) {
  for (int d : {2, 3, 8, 64}) {
    Eigen::MatrixXd s = Eigen::MatrixXd::Identity(d, d);
    for (int i = 0; i < d; ++i)
      applySimplexRows(s.col(i).data(), d);
    const Eigen::MatrixXd gram = s * s.transpose();
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j)
        EXPECT_NEAR(gram(i, j), i == j ? 1.0 : -1.0 / (d - 1), 1e-14) << d << " " << i << " " << j;
    EXPECT_LT(s.colwise().sum().norm(), 1e-13);
  }
}

TEST(PairFrame, PreservesInnerProducts) {
  Eigen::VectorXd x, y;
  testing::drawPair(7, 1.3, 11, x, y);
  const PairFrame f = PairFrame::fromVectors(x, y);
  EXPECT_NEAR(f.sum1 * f.sum1 + f.sum2 * f.sum2, (x + y).squaredNorm(), 1e-12);
  EXPECT_NEAR(f.diff1 * f.diff1 + f.diff2 * f.diff2, (x - y).squaredNorm(), 1e-12);
  EXPECT_NEAR(f.sum1 * f.diff1 + f.sum2 * f.diff2, x.squaredNorm() - y.squaredNorm(), 1e-12);
  // x ≈ y: the difference keeps its full relative accuracy.
  const Eigen::VectorXd near = x + 1e-9 * Eigen::VectorXd::Unit(7, 2);
  const PairFrame g = PairFrame::fromVectors(x, near);
  const double exact = (x - near).norm();  // exact: the subtraction cancels without rounding
  EXPECT_NEAR(std::hypot(g.diff1, g.diff2), exact, 1e-15 * exact);
}

struct SamplerCase {
  const char* mechanism;
  const char* coupling;
  int d;
  double sigma;
};

std::vector<double> trialValues(const MonteCarloRequest& request, SamplingPath path,
                                std::uint64_t seed, int n, MomentAccumulator& moments) {
  MonteCarloRequest r = request;
  r.path = path;
  r.seed = seed;
  const auto plan = makeSamplingPlan(r);
  EXPECT_TRUE(plan) << plan.reason();
  std::vector<double> values(n);
  TrialScratch scratch;
  for (int t = 0; t < n; ++t) {
    const SignedLog v = sampleTrial(*plan, static_cast<std::uint64_t>(t), scratch);
    moments.add(v);
    values[t] = v.value();
  }
  return values;
}

double kolmogorovSmirnov(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double v = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= v)
      ++i;
    while (j < b.size() && b[j] <= v)
      ++j;
    d = std::max(d, std::fabs(double(i) / a.size() - double(j) / b.size()));
  }
  return d;
}

void PrintTo(const SamplerCase& c, std::ostream* out) {
  *out << c.mechanism << " / " << c.coupling << " d=" << c.d << " sigma=" << c.sigma;
}

class FastFullAgreement : public ::testing::TestWithParam<SamplerCase> {};

TEST_P(FastFullAgreement, SameDistribution) {
  const SamplerCase c = GetParam();
  if (!findMechanism(c.mechanism)) GTEST_SKIP() << c.mechanism << " is not registered";
  MonteCarloRequest request =
      testing::makeRequest(c.mechanism, c.coupling, c.d, c.sigma, c.d + 3, 3000);
  if (std::string(c.mechanism) == "gerf") {  // complex A with s = -1: every coefficient complex
    request.parameters.set("A", 0.02);
    request.parameters.set("A_imag", 0.05);
    request.parameters.set("s", std::string("-1"));
  }
  const int n = 3000;
  MomentAccumulator fast, full;
  const auto a = trialValues(request, SamplingPath::Fast, 101, n, fast);
  const auto b = trialValues(request, SamplingPath::Full, 202, n, full);
  const double z = 3.29;  // two-sided 99.9%
  const double meanA = fast.mean * std::exp(fast.logScale),
               meanB = full.mean * std::exp(full.logScale);
  const double varA = std::exp(fast.logVariance()), varB = std::exp(full.logVariance());
  EXPECT_NEAR(meanA, meanB, z * std::sqrt(varA / n + varB / n));
  const auto varianceSe = [&](const MomentAccumulator& m, double var) {
    const double mu4 = m.m4 * std::exp(4 * m.logScale) / n;
    return std::sqrt(std::max(0.0, mu4 - var * var) / n);
  };
  EXPECT_NEAR(varA, varB, z * std::hypot(varianceSe(fast, varA), varianceSe(full, varB)));
  const double critical = std::sqrt(-std::log(0.001 / 2) / 2) * std::sqrt(2.0 / n);
  EXPECT_LT(kolmogorovSmirnov(a, b), critical);
}

std::vector<SamplerCase> cases() {
  std::vector<SamplerCase> out;
  for (const char* mechanism : {"trig", "pos", "pos-hyp", "gerf", "oprf"})
    for (const char* coupling : {"iid", "orf", "simrf"})
      for (int d : {2, 5, 16})
        out.push_back({mechanism, coupling, d, 0.4});
  for (int d : {2, 5, 16})
    for (const char* hybrid : {"hybrid-angular", "hybrid-gaussian"})
      out.push_back({hybrid, "iid", d, 0.4});
  for (const char* mechanism : {"trig", "pos", "oprf"})
    for (const char* coupling : {"orf-fast", "simrf-fast"})
      for (int d : {2, 5, 16})
        out.push_back({mechanism, coupling, d, 0.4});
  return out;
}

std::string samplerCaseName(const ::testing::TestParamInfo<SamplerCase>& info) {
  std::string name = std::string(info.param.mechanism) + "_" + info.param.coupling + "_d" +
                     std::to_string(info.param.d);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllContinuous, FastFullAgreement, ::testing::ValuesIn(cases()),
                         samplerCaseName);

}  // namespace
}  // namespace rfscope
