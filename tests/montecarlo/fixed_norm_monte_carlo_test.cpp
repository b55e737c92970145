// orf-fixed-norm through the Monte Carlo engine, fast and full paths: the sample mean lands on the
// Bessel-kernel mean Ω_d (not on the Gaussian kernel: the bias is many standard errors wide), and
// the sample variance on the closed form about that mean — TrigRF and PosRF, one full block and a
// partial one (M = d + 2), 99.9% intervals (the mean's from the sample variance, the variance's
// from the batch means), fixed seeds.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "core/analytic/analytic_variance.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "monte_carlo_test_support.h"
#include "tests/normal_quantiles.h"

namespace rfscope {
namespace {

TEST(FixedNormMonteCarlo, MeanIsTheBesselKernelAndVarianceTheClosedForm) {
  const double t = studentTQuantile(0.999, kBatchCount - 1);
  for (const char* mechanism : {"trig", "pos"})
    for (const SamplingPath path : {SamplingPath::Fast, SamplingPath::Full}) {
      const int d = 4;
      MonteCarloRequest request =
          testing::makeRequest(mechanism, "orf-fixed-norm", d, 0.5, d + 2, 40000, 17);
      request.path = path;
      const auto result = runMonteCarlo(request);
      ASSERT_TRUE(result) << result.reason();
      const AnalyticAnswer exact = evaluateAnalytic(request, request.x, request.y);
      ASSERT_TRUE(exact.variance) << exact.variance.reason();
      const AnalyticVariance& v = *exact.variance;
      ASSERT_TRUE(v.logAbsBias);
      const std::string label =
          std::string(mechanism) + (path == SamplingPath::Fast ? " fast" : " full");
      const double kernel = std::exp(exact.logKernelValue);
      const double expectedMean = kernel + v.biasSign * std::exp(*v.logAbsBias);
      const double mean = result->mean.sign * std::exp(result->mean.logAbs);
      const double meanError = std::sqrt(result->variance / static_cast<double>(result->trials));
      EXPECT_NEAR(mean, expectedMean, test::kZ999 * meanError) << label;
      // The bias is resolved: the kernel itself lies far outside the interval.
      EXPECT_GT(std::abs(mean - kernel), 10 * meanError) << label;
      const double ratio = std::exp(result->logVariance - v.logVariance);
      EXPECT_NEAR(ratio, 1.0, t * result->relativeStdErr) << label;
      std::printf("  %-9s mean %.6f (Ω %.6f, K %.6f), Var/closed form %.4f ± %.4f\n", label.c_str(),
                  mean, expectedMean, kernel, ratio, t * result->relativeStdErr);
    }
}

}  // namespace
}  // namespace rfscope
