#pragma once
// The measured ceiling the CUDA backend is judged against: a kernel that draws, for every trial,
// the random numbers the estimator needs (fastTrialRandomDraws Box–Muller normals, two per pair,
// from the trial's Philox stream) and sums them — the estimator's unavoidable work, with none of
// its arithmetic.

#include <cstdint>
#include <optional>
#include <string>

#include "core/montecarlo/fast_trial_plan.h"

namespace rfscope {

struct ThroughputBound {
  double seconds = 0;      // device time of the draws, measured with CUDA events
  double checksum = 0;     // the sum of all draws (keeps the compiler from skipping them)
  std::int64_t draws = 0;  // per trial
};

// nullopt with the reason when no CUDA device can run it.
std::optional<ThroughputBound> measureCudaThroughputBound(const FastTrialPlan& plan,
                                                          std::int64_t trials, std::string* reason);

}  // namespace rfscope
