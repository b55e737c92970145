#pragma once
// The parameters a mechanism's features take for an attention problem, chosen as the experiments
// choose them.

#include "core/attention/attention_problem.h"
#include "core/mechanisms/mechanism.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// The data-driven parameters from the statistics of the problem's queries and keys (CRT eq. 8 for
// OPRF's A*; query i paired with key i, the last key repeated where there are fewer keys), the
// remaining ones resolved at the first pair.
ParameterSet attentionParameters(const Mechanism& mechanism, const AttentionProblem& problem);

}  // namespace rfscope
