#pragma once
// What `rfscope-cli analytic` reports, shared with the Python module: the closed form at a pair,
// or why it is not available (no closed form, or a special function giving up at that input), and
// the JSON object the command prints.

#include <nlohmann/json.hpp>

#include "core/analytic/analytic_variance.h"
#include "core/math/outcome.h"

namespace rfscope::cli {

// The closed form with every log the command prints finite (or -inf for an exact zero), or the
// reason the command prints after "not available: ". Never throws for a valid estimator.
Outcome<AnalyticAnswer> availableAnalytic(const EstimatorSpec& estimator, const PairInput& pair);

// The command's JSON object for an available answer at a pair of dimension d.
nlohmann::json analyticReport(const EstimatorSpec& estimator, std::size_t d,
                              const AnalyticAnswer& answer);

}  // namespace rfscope::cli
