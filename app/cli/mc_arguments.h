#pragma once
// The arguments of `rfscope-cli mc`: the estimator (estimator_arguments.h) and the Monte Carlo
// run's --trials --seed --threads --path --quantiles --backend, parsed and checked before anything
// runs (M and the trials within the limits of core/data/input_limits.h).

#include <string>
#include <vector>

#include "app/cli/estimator_arguments.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope::cli {

struct McInvocation {
  EstimatorArguments estimator;
  MonteCarloRequest request;  // request.backend holds --backend
  int threads = 0;            // 0: all cores
};

// Throws UsageError for anything wrong.
McInvocation parseMcInvocation(const std::vector<std::string>& args);

}  // namespace rfscope::cli
