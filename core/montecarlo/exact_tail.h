#pragma once
// What the exact moments of an estimator say about a Monte Carlo interval for its variance.
//
// The batch-means 95% interval (monte_carlo_result.h) treats each batch's sample variance as
// roughly normal. For heavy-tailed K̂ it is not: the squared error Y = (K̂ - K)² is so lopsided that
// most runs underestimate the variance and their interval misses it, though nothing in the
// samples says so. Where the mechanism's moments have closed forms, they say how lopsided: with
// the standardised central moments β₄ = E(K̂-K)⁴/σ⁴ and β₆ = E(K̂-K)⁶/σ⁶ of the M-feature estimate,
//   skewness of Y = (β₆ - 3β₄ + 2)/(β₄ - 1)^{3/2},
// and a batch of b trials has a sample variance of skewness ≈ skew(Y)/√b. Its interval covers the
// exact variance 93-97% of the time once skew(Y)/√b ≤ 5 (measured for lognormal tails from
// skew/√b = 0.1 to 800: 0.93-0.957 at ≤ 6, 0.92 and less at ≥ 11), so a run of B batches needs
//   trialsNeeded = B · (skew(Y)/5)².
//
// Closed forms: one feature of the exponential family (exponential_feature_model.h) under i.i.d.
// frequencies, f = Σ_t c_t exp(a_t|ω|² + (b_t x+y-part + b'_t x-y-part)ᵀω) (+ random phases),
// whose powers are sums of such exponentials with E exp(a|ω|² + βᵀω) = (1-2a)^{-d/2}
// exp(βᵀβ/(2(1-2a))) for Re a < ½ (otherwise that moment is infinite); the M-feature average's
// cumulants are the one feature's divided by M^{j-1}.

#include <optional>

namespace rfscope {

struct SamplingPlan;

struct ExactTail {
  double kurtosis = 3;       // β₄ of the M-feature estimate (inf where E K̂⁴ = ∞)
  double errorSkewness = 0;  // skewness of (K̂ - K)² (inf where E K̂⁶ = ∞)
  double trialsNeeded = 0;   // for the batch-means interval to be trusted (may be inf)
};

// The exact tail of the plan's estimator, where its moments have closed forms (exponential
// family, i.i.d. frequencies) and evaluate without cancellation; nullopt otherwise.
std::optional<ExactTail> exactTail(const SamplingPlan& plan, int batches);

}  // namespace rfscope
