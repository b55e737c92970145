// A trial shape defined in this file alone: a mechanism whose Monte Carlo trial none of the
// engine's samplers knows brings it as a TrialKernel (core/mechanisms/trial_kernel.h), and the
// engine runs it — unbiased, with the variance its closed form says, the same numbers for any
// thread count — without a line of the engine changed.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/trial_kernel.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "monte_carlo_test_support.h"

namespace rfscope {
namespace {

// cos ωᵀ(x - y) per feature: TrigRF's estimate of the Gaussian kernel, as a trial of its own.
class CosineTrial final : public TrialKernel {
 public:
  void addFeatureProducts(const TrialInputs& in, TrialStream& rng,
                          EnvelopeSum& total) const override {
    forEachFrequency(
        in.coupling, in.dimension, in.features, in.simplexPlusIterations, rng, *in.scratch,
        [&](const auto& omega) { total.add(0.0, std::cos(omega.dot(*in.difference))); });
  }
};

// TrigRF's closed forms and feature maps, its trial the kernel above.
class CosineTrialMechanism final : public Mechanism {
 public:
  const MechanismInfo& info() const override {
    static const MechanismInfo info{"toy-cosine-trial",
                                    "Toy cosine trial",
                                    "TrigRF with its own trial kernel",
                                    "this test",
                                    false,
                                    true,
                                    Rgb{20, 120, 200}};
    return info;
  }
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override {
    return trig().logVariance(pair, params);
  }
  Outcome<TrialModel> trialModel(Coupling, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                 const ParameterSet&) const override {
    TrialModel model;
    model.family = TrialFamily::Kernel;
    model.kernel = std::make_shared<CosineTrial>();
    return model;
  }
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override {
    return trig().drawFeatureMap(spec, stream);
  }

 private:
  static const Mechanism& trig() { return *findMechanism("trig"); }
};

const CosineTrialMechanism toy;

MonteCarloRequest toyRequest(std::int64_t trials) {
  MonteCarloRequest request =
      testing::makeRequest("trig", "iid", 8, 0.5 / std::sqrt(8.0), 4, trials);
  request.mechanism = &toy;
  request.kernel = Kernel::Gaussian;
  return request;
}

TEST(ToyTrialKernel, TheEngineRunsItOnTheFullPathWithTheClosedFormsVariance) {
  const MonteCarloRequest request = toyRequest(200000);
  const auto result = runMonteCarlo(request, {});
  ASSERT_TRUE(result) << result.reason();
  EXPECT_EQ(result->path, "full");  // a mechanism's own trial runs on the full path
  const AnalyticAnswer exact = evaluateAnalytic(request, request.x, request.y);
  ASSERT_TRUE(exact.variance) << exact.variance.reason();
  const double t = studentTQuantile(0.999, result->batches - 1);
  EXPECT_NEAR(std::exp(exact.variance->logVariance - result->logVariance), 1.0,
              t * result->relativeStdErr);
  const double meanOverK = result->mean.sign * std::exp(result->mean.logAbs - exact.logKernelValue);
  const double meanSe = std::exp(0.5 * (result->logVariance - std::log(double(result->trials))) -
                                 exact.logKernelValue);
  EXPECT_NEAR(meanOverK, 1.0, 3.29 * meanSe);
}

TEST(ToyTrialKernel, SameNumbersForAnyThreadCount) {
  const MonteCarloRequest request = toyRequest(20000);
  const auto one = runMonteCarlo(request, {}, nullptr, 1);
  const auto two = runMonteCarlo(request, {}, nullptr, 2);
  ASSERT_TRUE(one && two);
  testing::expectIdentical(*one, *two);
}

// Asked for the fast path (the default), the plan takes the full one: the engine knows nothing of
// the trial but what the kernel draws.
TEST(ToyTrialKernel, ThePlanTakesTheFullPathWhateverWasAsked) {
  MonteCarloRequest request = toyRequest(1000);
  ASSERT_EQ(request.path, SamplingPath::Fast);
  const auto plan = makeSamplingPlan(request);
  ASSERT_TRUE(plan) << plan.reason();
  EXPECT_EQ(plan->path, SamplingPath::Full);
  EXPECT_FALSE(plan->fast.has_value());
  EXPECT_EQ(plan->model.family, TrialFamily::Kernel);
}

}  // namespace
}  // namespace rfscope
