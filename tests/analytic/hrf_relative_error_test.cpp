// HRF relative errors on the sphere: Lemma 3.4 and Thm 3.5 against mpmath, and the exact hybrid
// (Thm 3.1 + Lemma 3.2 via the hybrid-angular mechanism) against Thm 3.5's bound and its θ → 0
// limit.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/analytic/analytic_variance.h"
#include "core/analytic/hrf_relative_error.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

TEST(HrfRelativeError, Lemma34AndTheorem35MatchMpmath) {
  std::size_t checked = 0;
  for (const auto& c : analyticReferences().at("hrf")) {
    const double theta = c.at("theta"), r = c.at("r");
    const std::int64_t m = c.at("m"), n = c.at("n");
    EXPECT_NEAR(logTrigRelativeError(theta, r, m), referenceValue(c.at("log_trig")), 1e-10);
    EXPECT_NEAR(logPosHypRelativeError(theta, r, m), referenceValue(c.at("log_pos_hyp")), 1e-10);
    EXPECT_NEAR(logMaxBaseRelativeError(r, m), referenceValue(c.at("log_max")), 1e-10);
    if (c.contains("log_bound"))
      EXPECT_NEAR(logAngularHybridBound(r, m, n), referenceValue(c.at("log_bound")), 1e-10);
    else
      EXPECT_TRUE(std::isnan(logAngularHybridBound(r, m, n)));
    ++checked;
  }
  EXPECT_EQ(checked, 40u);
}

TEST(HrfRelativeError, MechanismsReproduceLemma34) {
  // √Var / SM of the trig and hyperbolic-positive mechanisms (softmax kernel) on S(r).
  for (double r : {0.5, 1.0, 2.0}) {
    for (double theta : {0.2, 1.0, 2.5}) {
      Eigen::VectorXd x(2), y(2);
      x << r, 0;
      y << r * std::cos(theta), r * std::sin(theta);
      for (const char* id : {"trig", "pos-hyp"}) {
        EstimatorSpec request;
        request.mechanism = findMechanism(id);
        request.kernel = Kernel::Softmax;
        request.features = 4;
        const AnalyticAnswer a = evaluateAnalytic(request, x, y);
        const double expected = std::string(id) == "trig" ? logTrigRelativeError(theta, r, 4)
                                                          : logPosHypRelativeError(theta, r, 4);
        EXPECT_NEAR(0.5 * a.variance->logVariance - a.logKernelValue, expected, 1e-12) << id;
      }
    }
  }
}

TEST(HrfRelativeError, AngularHybridRespectsTheorem35) {
  for (double r : {1.0, 1.5, 2.0, 3.0}) {
    for (std::int64_t n : {1, 8, 64}) {
      double worst = -INFINITY;
      for (int i = 1; i < 2000; ++i) {
        const double theta = std::numbers::pi * i / 2000;
        worst = std::max(worst, logAngularHybridRelativeError(theta, r, 16, n));
      }
      EXPECT_LE(worst, logAngularHybridBound(r, 16, n)) << "r=" << r << " n=" << n;
      // And it beats both base estimators' worst case W(r)/√(2m).
      EXPECT_LT(worst, logMaxBaseRelativeError(r, 16));
    }
  }
  // θ → 0: ε/√θ → W(r)/√(2πmn).
  const double r = 1.5, theta = 1e-8;
  const double limit = logMaxBaseRelativeError(r, 16) - 0.5 * std::log(std::numbers::pi * 8);
  EXPECT_NEAR(logAngularHybridRelativeError(theta, r, 16, 8) - 0.5 * std::log(theta), limit, 1e-6);
}

}  // namespace
}  // namespace rfscope
