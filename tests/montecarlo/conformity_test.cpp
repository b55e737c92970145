// Empirical RF-conformity (SimRF eq. 10): its kernel h, the order SimRF < ORF < IID, and SimRF+
// (eq. 17) below SimRF for the same norms.
#include <cmath>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "core/couplings/frequencies.h"
#include "core/montecarlo/conformity_estimate.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// v = 1, the rest as the request's defaults.
ConformityRequest conformityRequest(Coupling coupling, int d, std::int64_t trials) {
  ConformityRequest request;
  request.coupling = coupling;
  request.dimension = d;
  request.v = 1.0;
  request.trials = trials;
  return request;
}

TEST(Conformity, KernelMatchesItsSeries) {
  // h(z) = Γ(d/2) (z/2)^{1-d/2} I_{d/2-1}(z); for d = 2, h = I₀(z); h(0) = 1.
  EXPECT_EQ(conformityKernel(64, 0.0), 1.0);
  EXPECT_NEAR(conformityKernel(2, 1.0), 1.2660658777520082, 1e-15);  // I₀(1)
  EXPECT_NEAR(conformityKernel(2, 10.0), 2815.716628466254, 1e-9);   // I₀(10)
}

TEST(Conformity, SimplexBelowOrthogonalBelowIid) {
  double previous = std::numeric_limits<double>::infinity();
  for (Coupling coupling : {Coupling::Iid, Coupling::Orthogonal, Coupling::Simplex}) {
    const ConformityResult result = estimateConformity(conformityRequest(coupling, 16, 2000));
    EXPECT_EQ(result.trials, 2000);
    EXPECT_LT(result.conformity + 3.29 * result.standardError, previous);
    previous = result.conformity - 3.29 * result.standardError;
  }
}

TEST(Conformity, SimplexPlusBelowSimplexForTheSameNorms) {
  // The same stream gives SimRF and SimRF+ the same rotation and norms; eq. (17) is coordinate
  // descent on Σ w_ij², so it can only lower it, and at small v the conformity follows.
  const int d = 8;
  FrequencyScratch scratch;
  double sumDifference = 0, sumSquares = 0;
  const int n = 2000;
  for (int t = 0; t < n; ++t) {
    double h[2], w2[2];
    int k = 0;
    for (Coupling coupling : {Coupling::Simplex, Coupling::SimplexPlus}) {
      TrialStream rng(5, static_cast<std::uint64_t>(t));
      drawFullBlock(coupling, d, 3, rng, scratch);
      blockConformity(scratch.omega, d, 0.5, h[k], w2[k]);
      ++k;
    }
    EXPECT_LE(w2[1], w2[0] * (1 + 1e-12)) << t;
    sumDifference += h[0] - h[1];
    sumSquares += (h[0] - h[1]) * (h[0] - h[1]);
  }
  const double mean = sumDifference / n;
  const double sd = std::sqrt(sumSquares / n - mean * mean);
  EXPECT_GT(mean, 3.29 * sd / std::sqrt(double(n)));
}

}  // namespace
}  // namespace rfscope

namespace rfscope {
namespace {

// The second adversarial campaign, item 1: wij-density with orf-fast or simrf-fast at d = 6 wrote
// past a length-6 column in a Hadamard transform (heap corruption, abort). The structured blocks
// are drawn in d padded to a power of two, as everywhere else; an unpadded block is refused.
TEST(Conformity, StructuredCouplingsAtANonPowerOfTwoDimensionArePadded) {
  for (Coupling coupling : {Coupling::OrthogonalFast, Coupling::SimplexFast}) {
    for (int d : {3, 5, 6, 7, 12}) {
      SCOPED_TRACE(std::string(couplingId(coupling)) + " d=" + std::to_string(d));
      ConformityRequest request = conformityRequest(coupling, d, 200);
      request.histogramBins = 10;
      const ConformityResult result = estimateConformity(request);
      EXPECT_EQ(result.trials, 200);
      EXPECT_TRUE(std::isfinite(result.conformity));
      const int padded = frequencyDimension(coupling, d);
      EXPECT_DOUBLE_EQ(result.pairNorms.edges.back(), std::sqrt(2.0 * padded) + 8);
      FrequencyScratch scratch;
      TrialStream rng(1, 0);
      // Unpadded: a precondition of drawFullBlock, asserted in every build (README, "Errors").
      GTEST_FLAG_SET(death_test_style, "threadsafe");
      EXPECT_DEATH(drawFullBlock(coupling, d, 0, rng, scratch), "power-of-two dimension");
    }
  }
}

}  // namespace
}  // namespace rfscope
