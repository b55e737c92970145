// Monte Carlo against the closed forms: for every mechanism with a finite fourth moment, the
// analytic variance lies in the 99.9% confidence interval built from the Monte Carlo data alone
// (batch means, Student t with batches - 1 degrees of freedom), at d ∈ {2, 8, 64} and several σ;
// and for positive features at d = 64, small v, the MSE order SimRF < ORF < IID.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/analytic/analytic_variance.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

struct AgreementCase {
  std::string mechanism;
  Kernel kernel;
  std::string coupling;
  int d;
  double scale;  // σ = scale/√d, so |x + y|² ≈ 2 scale²
  std::int64_t features;
  std::vector<std::pair<std::string, ParameterValue>> parameters;
};

std::string agreementCaseName(const ::testing::TestParamInfo<AgreementCase>& info) {
  const AgreementCase& c = info.param;
  std::string name = c.mechanism + "_" + std::string(kernelId(c.kernel)) + "_" + c.coupling + "_d" +
                     std::to_string(c.d) + "_s" +
                     std::to_string(static_cast<int>(std::lround(c.scale * 100))) + "_m" +
                     std::to_string(c.features) + "_" + std::to_string(info.index);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

void PrintTo(const AgreementCase& c, std::ostream* out) {
  *out << c.mechanism << " " << kernelId(c.kernel) << " / " << c.coupling << " d=" << c.d
       << " scale=" << c.scale << " M=" << c.features;
  for (const auto& [key, value] : c.parameters)
    *out << " " << key << "=" << formatParameterValue(value);
}

class AnalyticAgreement : public ::testing::TestWithParam<AgreementCase> {};

TEST_P(AnalyticAgreement, VarianceWithinMonteCarloInterval) {
  const AgreementCase& c = GetParam();
  if (!findMechanism(c.mechanism)) GTEST_SKIP() << c.mechanism << " is not registered";
  MonteCarloRequest request = testing::makeRequest(c.mechanism, c.coupling, c.d,
                                                   c.scale / std::sqrt(c.d), c.features, 200000);
  for (const auto& [key, value] : c.parameters)
    request.parameters.set(key, value);
  request.kernel = c.kernel;

  const AnalyticAnswer exact = evaluateAnalytic(request, request.x, request.y);
  if (!exact.variance) GTEST_SKIP() << "no closed form: " << exact.variance.reason();

  const auto result = runMonteCarlo(request, {});
  ASSERT_TRUE(result) << result.reason();
  ASSERT_EQ(result->batches, kBatchCount);
  const double t = studentTQuantile(0.999, result->batches - 1);
  const double ratio =
      std::exp(exact.variance->logVariance - result->logVariance);  // analytic / MC
  EXPECT_NEAR(ratio, 1.0, t * result->relativeStdErr)
      << "log variance: analytic " << exact.variance->logVariance << ", Monte Carlo "
      << result->logVariance << " ± " << result->relativeStdErr << " (relative)";
  // The mean is unbiased for the kernel: |mean - K| within 99.9% of its standard error.
  const double meanOverK = result->mean.sign * std::exp(result->mean.logAbs - exact.logKernelValue);
  const double meanSe = std::exp(0.5 * (result->logVariance - std::log(double(result->trials))) -
                                 exact.logKernelValue);
  EXPECT_NEAR(meanOverK, 1.0, 3.29 * meanSe);
  // Flagged exactly where the exact moments call for more trials than the run has (exact_tail.h):
  // the interval may hold for this seed, but its coverage over seeds is not 95%.
  const bool needsMore = result->exactTail &&
                         !(static_cast<double>(result->trials) >= result->exactTail->trialsNeeded);
  EXPECT_EQ(result->heavyTail, needsMore)
      << (result->heavyTailReasons.empty() ? "" : result->heavyTailReasons.front());
}

std::vector<AgreementCase> iidCases() {
  std::vector<AgreementCase> out;
  const std::vector<std::pair<std::string, ParameterValue>> none;
  for (int d : {2, 8, 64}) {
    for (double scale : {0.2, 0.5, 0.8}) {
      for (const char* id : {"trig", "trig-phase", "pos", "pos-hyp", "oprf", "pois", "geom",
                             "pois-plus", "geom-plus"})
        out.push_back({id, Kernel::Gaussian, "iid", d, scale, 1, none});
      out.push_back({"gerf",
                     Kernel::Gaussian,
                     "iid",
                     d,
                     scale,
                     1,
                     {{"A", 0.03}, {"A_imag", 0.02}, {"s", std::string("-1")}}});
      out.push_back(
          {"gerf", Kernel::Gaussian, "iid", d, scale, 1, {{"A", -0.1}, {"s", std::string("+1")}}});
    }
    for (bool shared : {false, true})
      out.push_back({"hybrid-angular",
                     Kernel::Gaussian,
                     "iid",
                     d,
                     0.8,
                     2,
                     {{"n", std::int64_t{4}}, {"shared", shared}}});
    // Gaussian coefficient: b = 1 keeps E[λ̂(1-λ̂)] > 0, b = 0.3 with n = 1 makes it < 0 (the shared
    // covariance then adds to the variance instead of removing from it).
    for (const auto& [n, bandwidth] : {std::pair{4, 1.0}, std::pair{1, 0.3}})
      for (bool shared : {false, true})
        out.push_back({"hybrid-gaussian",
                       Kernel::Gaussian,
                       "iid",
                       d,
                       0.8,
                       2,
                       {{"n", std::int64_t{n}}, {"bandwidth", bandwidth}, {"shared", shared}}});
    out.push_back({"hybrid-gaussian", Kernel::Softmax, "iid", d, 0.8, 3, none});
    out.push_back({"trig", Kernel::Gaussian, "iid", d, 2.0, 1, none});
    for (const char* id : {"trig", "trig-phase", "pos",
                           "oprf"})  // softmax: the Gaussian estimate times e^{(|x|²+|y|²)/2}
      out.push_back({id, Kernel::Softmax, "iid", d, 0.8, 4, none});
    out.push_back({"oprf", Kernel::Gaussian, "iid", d, 1.2, 3, none});
    // Dense-exponential features, matrices of the pair alone (the full path's dense trial).
    for (const char* id : {"sderf", "aderf", "saderf"}) {
      for (const double scale : {0.5, 1.2})
        out.push_back({id, Kernel::Gaussian, "iid", d, scale, 1, none});
      out.push_back({id, Kernel::Softmax, "iid", d, 0.8, 4, none});
    }
    // Random Maclaurin features: λ* of the pair, a given λ and the geometric law (own trial).
    for (const double scale : {0.5, 1.2})
      out.push_back({"maclaurin", Kernel::Gaussian, "iid", d, scale, 1, none});
    out.push_back({"maclaurin", Kernel::Softmax, "iid", d, 0.8, 4, {{"lambda", 1.5}}});
    out.push_back(
        {"maclaurin", Kernel::Gaussian, "iid", d, 0.8, 2, {{"degrees", std::string("geometric")}}});
    for (const char* coupling : {"orf", "simrf"}) {
      out.push_back({"pos", Kernel::Gaussian, coupling, d, 0.5, d, none});
      out.push_back({"pos", Kernel::Gaussian, coupling, d, 0.5, d + d / 2, none});
    }
    // TrigRF under ORF (SimRF eq. 26), one block and one and a half; the softmax kernel too.
    // Random phases under ORF and SimRF: TrigRF's cross terms, independent phases.
    for (const char* id : {"trig", "trig-phase"}) {
      for (const double scale : {0.8, 2.0}) {
        if (scale > 1 && std::string(id) == "trig-phase") continue;  // trig's cross term: once
        out.push_back({id, Kernel::Gaussian, "orf", d, scale, d, none});
        out.push_back({id, Kernel::Gaussian, "orf", d, scale, d + d / 2, none});
      }
      out.push_back({id, Kernel::Softmax, "orf", d, 0.8, d, none});
      // SimRF blocks: the simplex cross term (a 1-D integral beyond z² = 1, a series below).
      out.push_back({id, Kernel::Gaussian, "simrf", d, 2.0, d + d / 2, none});
      out.push_back({id, Kernel::Gaussian, "simrf", d, 0.5, d, none});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, AnalyticAgreement, ::testing::ValuesIn(iidCases()),
                         agreementCaseName);

// Positive features, d = 64, M = 64 (one block), |x + y| = v small.
TEST(CouplingOrder, SimplexBeatsOrthogonalBeatsIidForPositiveFeatures) {
  for (double v : {0.5, 1.0}) {
    std::vector<MonteCarloResult> results;
    for (const char* coupling : {"iid", "orf", "simrf"}) {
      MonteCarloRequest request = testing::makeRequest("pos", coupling, 64, 0.1, 64, 100000);
      const double scale = v / (request.x + request.y).norm();
      request.x *= scale;
      request.y *= scale;
      results.push_back(*runMonteCarlo(request));
    }
    const auto separated = [](const MonteCarloResult& larger, const MonteCarloResult& smaller) {
      // Difference of the two variances beyond 3.29 standard errors (independent runs).
      const double a = std::exp(larger.logVariance), b = std::exp(smaller.logVariance);
      const double se = std::hypot(a * larger.relativeStdErr, b * smaller.relativeStdErr);
      return a - b > 3.29 * se;
    };
    EXPECT_TRUE(separated(results[0], results[1])) << "IID vs ORF at v = " << v;
    EXPECT_TRUE(separated(results[1], results[2])) << "ORF vs SimRF at v = " << v;
  }
}

// The lesson of the math notes: PosRF at σ = 1 in d = 64 has a finite variance (e^{4xᵀy} - K²)
// that plain Monte Carlo cannot reach — the sample variance sits orders of magnitude below it.
// The run must say so instead of presenting a converged-looking number.
TEST(HeavyTail, UnreachableVarianceIsFlagged) {
  MonteCarloRequest request = testing::makeRequest("pos", "iid", 64, 1.0, 1, 50000);
  EstimatorSpec analytic;
  analytic.mechanism = request.mechanism;
  const AnalyticAnswer exact = evaluateAnalytic(analytic, request.x, request.y);
  const auto result = runMonteCarlo(request);
  ASSERT_TRUE(result && exact.variance);
  EXPECT_LT(result->logVariance, exact.variance->logVariance - 5);
  EXPECT_TRUE(result->heavyTail);
}

TEST(HeavyTail, InfiniteFourthMomentIsFlagged) {
  if (!findMechanism("gerf")) GTEST_SKIP() << "gerf is not registered";
  MonteCarloRequest request = testing::makeRequest("gerf", "iid", 8, 0.3, 1, 20000);
  request.parameters.set("A", 0.07);  // Re A >= 1/16: E K̂⁴ = ∞ (the variance itself is finite)
  request.parameters.set("s", std::string("+1"));
  const auto result = runMonteCarlo(request);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->heavyTail);
  EXPECT_NE(result->heavyTailReasons.front().find("fourth moment"), std::string::npos);
}

}  // namespace
}  // namespace rfscope
