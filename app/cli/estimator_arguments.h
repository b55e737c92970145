#pragma once
// The arguments shared by the commands that evaluate one estimator at one pair (`analytic`, `mc`):
// --mechanism ID [--kernel gaussian|softmax] [--coupling ID] [--m M] [--param KEY=VALUE]...
// --x "x1,x2,..." --y "y1,y2,...". Parsed and validated once, with one message per problem.

#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "app/cli/cli_arguments.h"
#include "core/mechanisms/estimator_spec.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope::cli {

struct EstimatorArguments {
  EstimatorSpec estimator;  // parameters validated against the mechanism's specs, defaults filled
  Eigen::VectorXd x, y;
};

// The value options above, to be passed to Arguments together with a command's own.
std::vector<std::string> estimatorValueOptions();

// Throws UsageError for missing, unknown or invalid values.
EstimatorArguments parseEstimatorArguments(const Arguments& arguments);

// The estimator alone (--mechanism --kernel --coupling --m --param; no --x/--y), for callers that
// take the pairs in another form (the Python module). Throws UsageError as above.
EstimatorSpec parseEstimatorSpec(const Arguments& arguments);

// Why the mechanism cannot take inputs of dimension d ("" where it can): its maxDimension().
std::string mechanismDimensionProblem(const Mechanism& mechanism, std::size_t d);

// Throws UsageError naming `option` when an entry lies beyond ±1e60 (input_limits.h).
void checkEntryMagnitudes(const std::string& option, const double* values, std::size_t count);

}  // namespace rfscope::cli
