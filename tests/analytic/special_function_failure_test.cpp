// A special function that gives up (Boost.Math throws) is no closed-form value at that input, with
// the reason, inside the core: evaluateAnalytic reports it, and an experiment that meets it fills
// the cell with NaN and a warning instead of aborting (the throw used to reach only the CLI's
// analytic and mc commands as a reason; every core caller let it end the whole run).
// Its own executable: the mechanism registered here throws, which the contract tests must not see.

#include <gtest/gtest.h>

#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <stdexcept>

#include "core/analytic/analytic_variance.h"
#include "core/experiments/experiment_registry.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/experiments/experiment_test_support.h"

namespace rfscope {
namespace {

// TrigRF whose closed form overflows in Boost.Math once the pair's norm passes 1.
class OverflowingMechanism final : public Mechanism {
 public:
  const MechanismInfo& info() const override {
    static const MechanismInfo info{
        "overflowing",
        "Overflowing RF",
        "TrigRF whose closed form overflows in Boost.Math beyond |x| = 1",
        "this test",
        false,
        true,
        Rgb{10, 120, 90}};
    return info;
  }
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override {
    if (pair.x.norm() > 1) {
      const double huge = boost::math::tgamma(200.0 + pair.x.norm());  // throws: overflow
      ADD_FAILURE() << "tgamma returned " << huge;
    }
    return trig().logVariance(pair, params);
  }
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override {
    return trig().trialModel(coupling, x, y, resolved);
  }
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override {
    return trig().drawFeatureMap(spec, stream);
  }

 private:
  static const Mechanism& trig() { return *findMechanism("trig"); }
};

const OverflowingMechanism overflowing;
const bool registered = (registerMechanism(overflowing), true);

TEST(SpecialFunctionFailure, IsAnUnavailableValueWithTheReason) {
  ASSERT_TRUE(registered);
  EstimatorSpec spec;
  spec.mechanism = &overflowing;
  Eigen::VectorXd x(2), y(2);
  x << 3, 0;
  y << 0, 1;
  const AnalyticAnswer answer = evaluateAnalytic(spec, x, y);
  ASSERT_FALSE(answer.variance);
  EXPECT_EQ(
      answer.variance.reason().rfind("the closed form cannot be evaluated at this input: ", 0), 0u)
      << answer.variance.reason();
  EXPECT_EQ(answer.variance.reason().find("boost::math"), std::string::npos);
  EXPECT_TRUE(std::isfinite(answer.logKernelValue));
  // Below the threshold the same mechanism has its closed form.
  x << 0.3, 0;
  EXPECT_TRUE(evaluateAnalytic(spec, x, y).variance);
}

TEST(SpecialFunctionFailure, LeavesTheCellOutOfAnExperimentWithAWarning) {
  const Experiment& experiment = *findExperiment("variance-vs-sigma");
  const RunResult result =
      test::runWith(experiment, {{"d", std::int64_t{4}},
                                 {"sigma-min", 0.1},
                                 {"sigma-max", 10.0},
                                 {"sigma-steps", std::int64_t{5}},
                                 {"pairs", std::int64_t{8}},
                                 {"mechanisms", std::vector<std::string>{"trig", "overflowing"}}});
  ASSERT_EQ(result.status, RunStatus::Completed);
  const auto& trig = result.table.column("trig-mean")->values;
  const auto& failing = result.table.column("overflowing-mean")->values;
  ASSERT_EQ(failing.size(), 5u);
  EXPECT_TRUE(std::isfinite(failing.front()));  // σ = 0.1: every pair below the threshold
  EXPECT_TRUE(std::isnan(failing.back()));      // σ = 10: every pair beyond it
  for (double v : trig)
    EXPECT_TRUE(std::isfinite(v));
  ASSERT_FALSE(result.warnings.empty());
  EXPECT_NE(result.warnings.front().find("no closed form"), std::string::npos)
      << result.warnings.front();
}

}  // namespace
}  // namespace rfscope
