#pragma once
// Small helpers shared by experiments that run Monte Carlo: derived seeds and an engine run tied to
// the experiment's RunContext (cancellation polled inside the trial loops).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/experiments/experiment.h"
#include "core/math/outcome.h"

namespace rfscope {

struct MonteCarloRequest;
struct MonteCarloResult;
struct SamplingPlan;
struct TrialScratch;

// A seed for sub-run (a, b) of a run seeded with `seed`: distinct sub-runs get unrelated streams,
// and the same (seed, a, b) always the same numbers.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0);

// runMonteCarlo on the context's backend choice (the CPU's cores, or the tbb::global_control
// limit, unless a large run goes to a GPU), stopped by context.cancelled(); snapshots go to
// `partial` and, with reportProgress, the fraction done to the context, as does the backend used.
// The result, or the reason there is none.
Outcome<MonteCarloResult> runMonteCarloFor(
    const MonteCarloRequest& request, RunContext& context,
    const std::function<void(const MonteCarloResult&)>& partial = {}, bool reportProgress = false);

// Trials 0 .. trials-1 of `plan` on the calling thread, in leaf order (the engine's batches and
// numbers: the same result as runMonteCarlo), for experiments that parallelise over many small
// runs instead. No stored samples. cancelled = true if `stop` fired.
MonteCarloResult sampleSerially(const SamplingPlan& plan, std::int64_t trials,
                                TrialScratch& scratch, const std::function<bool()>& stop);

// Mean and sample standard deviation of the finite values, in a fixed order (deterministic);
// `excluded` counts the non-finite values left out.
struct MeanAndStd {
  double mean;
  double std;
  std::size_t excluded = 0;
};
MeanAndStd summarizeFinite(const double* values, std::size_t count);

// Marks the result cancelled and returns true if the context asks to stop.
bool stopIfCancelled(RunContext& context, RunResult& result);

// An evenly spaced grid (linear or logarithmic) from `minimum` to `maximum`, `steps` >= 1 values.
std::vector<double> valueGrid(double minimum, double maximum, std::int64_t steps, bool logSpacing);

// A count (features, trials) as text: the nearest whole number below 10⁶, else three significant
// digits and a power of ten ("2.47 × 10¹²") — a predicted M can be astronomically large, and is
// good to a few percent only.
std::string countText(double count);

// Notes of the form (subject, reason), one line per distinct reason in order of first appearance,
// naming every subject it applies to: "PosRF, ORF; OPRF, ORF: no closed form …".
std::vector<std::string> groupedBySubject(
    const std::vector<std::pair<std::string, std::string>>& notes);

}  // namespace rfscope
