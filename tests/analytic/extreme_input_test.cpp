// Issue 12, items 9 and 10: closed forms at extreme inputs. OPRF gave NaN at |x| = 1e77 (its root
// squared 1e154), GERF threw Boost's overflow_error at |x|² = 1e16 (its 50-digit fallback took
// e^{1e16}), TrigRF under ORF threw itrunc at z² = 4.9e9 with even d, and GeomRF's p* rounded to
// 1 for y = 0. Every closed form now gives a finite log (or -inf for an exact zero), or says it is
// not available — never NaN, +inf or an exception — for entries up to the CLI's ±1e60.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/analytic/analytic_variance.h"
#include "core/couplings/coupling.h"
#include "core/couplings/trig_orthogonality.h"
#include "core/data/input_limits.h"
#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/oprf.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using test::vectorFromJson;

const nlohmann::json& extremeReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/extreme_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

double ulp(double value) {
  return std::nextafter(std::abs(value), std::numeric_limits<double>::infinity()) - std::abs(value);
}

TEST(ExtremeInputs, ClosedFormsMatchMpmathWhereDoublesOverflowedOrCancelled) {
  const auto& cases = extremeReferences()["cases"];
  ASSERT_GE(cases.size(), 20u);
  for (const auto& c : cases) {
    const Eigen::VectorXd x = vectorFromJson(c["x"]), y = vectorFromJson(c["y"]);
    const Mechanism& mechanism = *findMechanism(c["mechanism"].get<std::string>());
    EstimatorSpec request;
    request.mechanism = &mechanism;
    if (c.contains("params")) {
      request.parameters.set("A", c["params"]["A"].get<double>());
      request.parameters.set("A_imag", c["params"]["A_imag"].get<double>());
      request.parameters.set("s", std::string(c["params"]["s"].get<int>() > 0 ? "+1" : "-1"));
    }
    const double expected = c["log_variance"].get<double>();
    const AnalyticAnswer answer = evaluateAnalytic(request, x, y);
    SCOPED_TRACE(c.dump().substr(0, 160));
    ASSERT_TRUE(answer.variance) << answer.variance.reason();
    // 1e-13 relative, or 4 ulp of the log, or for OPRF and GERF of the |x - y|² it subtracts
    // (log Var = -|x - y|² + log(Var/K²), ~1e16 here: its rounding is inherent). The cancelled
    // part of the GERF cases, ~-33 in the log, is still far above that. PosRF's and PosRF-hyp's
    // -|x - y|² + |x + y|² = 4xᵀy needs no such allowance: four ulps of |x - y|² (~1e32) would
    // pass any answer for log Var = 2e16.
    const std::string id = mechanism.info().id;
    const double diff = (id == "oprf" || id == "gerf") ? (x - y).squaredNorm() : 0.0;
    EXPECT_NEAR(answer.variance->logVariance, expected,
                std::max({1e-13 * std::abs(expected), 4 * ulp(expected), 4 * ulp(diff)}));
  }
}

TEST(ExtremeInputs, OprfRootIsFiniteForEveryFiniteU) {
  for (const int d : {1, 64, 1024})
    for (const double u : {1e149, 1e150, 1e200, 1e300, 1.7e308}) {
      const double log = oprfLogVariance(d, 0.0, u);
      EXPECT_TRUE(std::isfinite(log)) << d << " " << u;
      // g ≈ (d/2) log(2u/d) - d log 2 + d/2 for u ≫ d.
      EXPECT_NEAR(log, 0.5 * d * (std::log(2.0) + std::log(u / d)) - d * std::log(2.0) + 0.5 * d,
                  1e-9 * log);
    }
  // Continuous across the switch to the large-u form.
  for (const int d : {1, 7, 1024}) {
    const double below = oprfLogVariance(d, 0.0, std::nextafter(1e150, 0.0));
    const double at = oprfLogVariance(d, 0.0, 1e150);
    EXPECT_NEAR(below, at, 1e-14 * at) << d;
    EXPECT_NEAR(oprfRMinusOne(d, std::nextafter(1e150, 0.0)) / oprfRMinusOne(d, 1e150), 1.0, 1e-14);
  }
}

TEST(ExtremeInputs, OrthogonalTrigAtHugeDistancesNoLongerThrows) {
  for (const int d : {2, 4, 64, 1024}) {
    EXPECT_EQ(trigOrthogonalCovariance(d, 4.9e9), 0.0) << d;  // below the smallest double
    EXPECT_EQ(trigOrthogonalCovariance(d, 1e120), 0.0) << d;
    EXPECT_NEAR(orthogonalTrigLogVariance(d, 4, 4.9e9), std::log(4 * 0.5 / 16), 1e-15);
  }
  // Odd d decays like z^{-2d} and stays evaluated by Boost: C ≈ Γ(3/2)/Γ(-3/2) (z²/2)^{-3} =
  // 0.375 (z²/2)^{-3} for d = 3.
  const double x = 0.5 * 4.9e9;
  EXPECT_NEAR(trigOrthogonalCovariance(3, 4.9e9) / (0.375 * std::pow(x, -3.0)), 1.0, 1e-6);
}

TEST(ExtremeInputs, GeomOptimumStaysInsideTheOpenInterval) {
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(3, 0.7), zero = Eigen::VectorXd::Zero(3);
  const double p = geomPStar(x, zero);  // the infimum is at p → 1
  EXPECT_LT(p, 1.0);
  EXPECT_GT(p, 0.999);
}

// Every mechanism × coupling × extreme pair: a finite log or -inf, or not available with a reason.
TEST(ExtremeInputs, NoClosedFormGivesNanOrThrowsUpToTheInputLimit) {
  std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> pairs;
  for (const double m : {kMaxDataMagnitude, 1e30, 1e8, 1e4, 30.0, 1e-150, 0.0})
    for (const int d : {1, 2, 5}) {
      Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(d, m, -m / 3);
      pairs.emplace_back(x, x);
      pairs.emplace_back(x, -x);
      pairs.emplace_back(x, Eigen::VectorXd::Zero(d));
      pairs.emplace_back(x, Eigen::VectorXd::Constant(d, 1.5));
    }
  int evaluated = 0;
  for (const Mechanism* mechanism : allMechanisms())
    for (const char* coupling : {"iid", "orf", "simrf"})
      for (const std::int64_t features : {1, 4})
        for (const auto& [x, y] : pairs) {
          EstimatorSpec request;
          request.mechanism = mechanism;
          request.coupling = parseCoupling(coupling, "coupling");
          request.features = features;
          SCOPED_TRACE(mechanism->info().id + " " + coupling + " x0=" + std::to_string(x[0]) +
                       " y0=" + std::to_string(y[0]) + " d=" + std::to_string(x.size()));
          AnalyticAnswer answer;
          ASSERT_NO_THROW(answer = evaluateAnalytic(request, x, y));
          if (!answer.variance) {
            EXPECT_FALSE(answer.variance.reason().empty());
            continue;
          }
          ++evaluated;
          const AnalyticVariance& variance = *answer.variance;
          for (const double log : {variance.logVariance, answer.logKernelValue})
            EXPECT_TRUE(!std::isnan(log) && log != std::numeric_limits<double>::infinity());
          EXPECT_FALSE(variance.logConformity && std::isnan(*variance.logConformity));
          EXPECT_FALSE(variance.logAbsOrthogonalityGap &&
                       std::isnan(*variance.logAbsOrthogonalityGap));
        }
  EXPECT_GT(evaluated, 500);
}

}  // namespace
}  // namespace rfscope
