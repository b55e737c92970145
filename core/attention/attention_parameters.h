#pragma once
// The parameters a mechanism's features take for an attention problem, chosen as the experiments
// choose them.

#include <cstdint>

#include "core/attention/attention_problem.h"
#include "core/couplings/coupling.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/mechanism.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// The data-driven parameters from the statistics of the problem's queries and keys (CRT eq. 8 for
// OPRF's A*; query i paired with key i, the last key repeated where there are fewer keys), the
// remaining ones resolved at the first pair.
ParameterSet attentionParameters(const Mechanism& mechanism, const AttentionProblem& problem);

// The feature map of the softmax kernel for the problem: its d, those parameters, the coupling
// and M.
FeatureMapSpec attentionFeatureSpec(const Mechanism& mechanism, const AttentionProblem& problem,
                                    Coupling coupling, std::int64_t features = 1);

}  // namespace rfscope
