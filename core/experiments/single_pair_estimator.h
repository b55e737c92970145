#pragma once
// The parameters shared by experiments that study one estimator at one pair (x, y) drawn from a
// regime and scaled by σ: mechanism, kernel, coupling, M, trials, seed; and the Monte Carlo request
// they describe.

#include <optional>
#include <string>
#include <vector>

#include "core/montecarlo/sampling_plan.h"
#include "core/params/parameter_set.h"

namespace rfscope {

std::vector<ParameterSpec> singlePairEstimatorParameters(std::int64_t defaultTrials);

// Cross-parameter errors: the regime cannot give the pair, or the sampler cannot sample the
// combination (named on "coupling" or "mechanism").
std::vector<ParameterError> singlePairEstimatorErrors(const ParameterSet& params);

// The request for validated parameters (the pair drawn from the prepared regime).
MonteCarloRequest singlePairRequest(const ParameterSet& params);

}  // namespace rfscope
