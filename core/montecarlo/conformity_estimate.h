#pragma once
// Empirical RF-conformity (SimRF eq. 10) and the empirical density of w_ij = |ω_i + ω_j| within a
// block of m <= d frequencies, for any coupling (iid, orf, simrf, simrf-plus): the quantities the
// SimRF analysis is built on, and the only way to see them for SimRF+, which has no closed form.
//   ρ = (1/(m(m-1))) Σ_{i≠j} E h(v w_ij),  h(z) = Γ(d/2) Σ_k (z/2)^{2k} / (k! Γ(k + d/2)).

#include <cstdint>

#include <Eigen/Core>

#include "core/couplings/frequencies.h"
#include "core/montecarlo/monte_carlo_result.h"

namespace rfscope {

struct ConformityRequest {
  Coupling coupling = Coupling::Simplex;
  int dimension = 2;
  std::int64_t rows = 0;  // m: vectors of one block taken (0: all d)
  double v = 1;           // |x + y|
  std::int64_t trials = 1000;
  std::uint64_t seed = 1;
  int simplexPlusIterations = kDefaultSimplexPlusIterations;
  int histogramBins = 40;
};

struct ConformityResult {
  double conformity = 0;     // mean over trials of the block's pair average of h(v w_ij)
  double standardError = 0;  // of that mean (trials are independent)
  double meanPairNormSquared =
      0;                // mean of w_ij²: SimRF+'s truncated objective (eq. 15) up to scale
  Histogram pairNorms;  // of w_ij over all pairs and trials (linear bins)
  std::int64_t trials = 0;
};

// h(z) of eq. (10) for dimension d (h(0) = 1).
double conformityKernel(int dimension, double z);

// The block's pair average of h(v w_ij) and of w_ij² for the first `rows` rows of omega.
void blockConformity(const Eigen::MatrixXd& omega, std::int64_t rows, double v, double& conformity,
                     double& meanPairNormSquared);

ConformityResult estimateConformity(const ConformityRequest& request);

}  // namespace rfscope
