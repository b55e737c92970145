#pragma once
// Everything one trial needs, resolved once per run from the request: which estimator (as the
// coefficients its mechanism maps onto the samplers, Mechanism::trialModel), which coupling, the
// pair, the seed. A trial is one M-feature estimate of the
// kernel; trial t draws all its numbers from Philox stream t under the seed (streams < 2^48).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/couplings/frequencies.h"
#include "core/math/kernel.h"
#include "core/math/outcome.h"
#include "core/math/signed_log.h"
#include "core/mechanisms/estimator_spec.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/trial_model.h"
#include "core/montecarlo/backend_choice.h"
#include "core/montecarlo/exact_tail.h"
#include "core/montecarlo/fast_trial_plan.h"
#include "core/montecarlo/pair_frame.h"
#include "core/random/trial_stream.h"

namespace rfscope {

enum class SamplingPath {
  Fast,  // only the projections the estimator depends on: O(1) per i.i.d. feature, O(d) per block
  Full   // brute force: every ω in full (Haar QR per block); the reference
};

// The estimator (mechanism, kernel, coupling, M, parameters), the pair, and how to sample it.
struct MonteCarloRequest : EstimatorSpec {
  Eigen::VectorXd x, y;
  std::int64_t trials = 10000;
  std::uint64_t seed = 1;
  SamplingPath path = SamplingPath::Fast;
  int simplexPlusIterations = kDefaultSimplexPlusIterations;  // SimRF eq. (17) passes, simrf-plus
  std::vector<double> quantileLevels{0.05, 0.5, 0.95};
  std::int64_t storedSamples = 4096;  // trials kept (uniformly at random) for quantiles
  int histogramBins = 40;
  BackendChoice backend = BackendChoice::Cpu;  // used when runMonteCarlo is given no backend
};

// Monte Carlo trials use Philox streams below this bound (data regimes use the ones above).
inline constexpr std::uint64_t kMaxTrials = std::uint64_t{1} << 48;

struct SamplingPlan {
  TrialModel model;  // the mechanism's trial on the samplers (its logConstant is in logOffset)
  Coupling coupling = Coupling::Iid;
  SamplingPath path = SamplingPath::Fast;
  int dimension = 0;
  std::int64_t features = 1;
  std::uint64_t seed = 1;
  int simplexPlusIterations = kDefaultSimplexPlusIterations;
  PairFrame frame;
  Eigen::VectorXd sum, difference;         // x + y and x - y (full path)
  Eigen::VectorXd frameAxis1, frameAxis2;  // the frame's e₁, e₂ (structured couplings)
  double logOffset = 0;                // added to every trial's log: constant factors, kernel scale
  double logKernelValue = 0;           // the kernel the estimator is unbiased for
  bool fourthMomentInfinite = false;   // E[K̂⁴] = ∞: the variance estimate cannot converge
  std::optional<ExactTail> exactTail;  // where the moments have closed forms (exact_tail.h)
  ParameterSet parametersUsed;         // the estimator's parameters, automatic ones resolved
  std::optional<FastTrialPlan> fast;   // the fast path's trial, when the plan takes it
};

// The plan for a request, or the reason there is none (a combination the sampler does not offer,
// an estimator the parameters leave undefined). Throws InvalidParameter for values out of range
// (x and y, features, trials).
Outcome<SamplingPlan> makeSamplingPlan(const MonteCarloRequest& request);

// Scratch memory a thread reuses across trials (the fast path's block frames, the full path's ω).
struct TrialScratch {
  std::vector<double> frame;  // 2d
  FrequencyScratch frequencies;
};

// One trial: the M-feature estimate, in the log domain. Depends only on (plan, trial).
SignedLog sampleTrial(const SamplingPlan& plan, std::uint64_t trial, TrialScratch& scratch);

}  // namespace rfscope
