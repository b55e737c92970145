#pragma once
// Runs a Monte Carlo request on a backend: leaves of trials in rounds of about 50 ms, merged in
// leaf order (bit-identical for any thread count), with progress, partial snapshots and
// cancellation.

#include <functional>
#include <optional>
#include <string>

#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

struct MonteCarloCallbacks {
  std::function<bool()> cancelled;       // polled between trials from worker threads
  std::function<void(double)> progress;  // fraction done, from the calling thread
  std::function<void(const MonteCarloResult&)> partial;  // snapshots, from the calling thread
  double partialIntervalSeconds = 0.1;                   // at most one snapshot per interval
};

// Runs on `backend`, or, when backend is null, on the one request.backend selects (the CPU backend
// with `threads` threads, 0: all). The result, or the reason there is none: the request cannot be
// sampled (makeSamplingPlan), the backend cannot run it, or the backend failed (a device error).
// Throws InvalidParameter for values out of range. A cancelled run returns the result of the
// trials finished so far (a prefix of the trials), with cancelled = true.
Outcome<MonteCarloResult> runMonteCarlo(const MonteCarloRequest& request,
                                        const MonteCarloCallbacks& callbacks = {},
                                        MonteCarloBackend* backend = nullptr, int threads = 0);

}  // namespace rfscope
