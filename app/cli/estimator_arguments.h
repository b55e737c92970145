#pragma once
// The arguments shared by the commands that evaluate one estimator at one pair (`analytic`, `mc`):
// --mechanism ID [--kernel gaussian|softmax] [--coupling ID] [--m M] [--param KEY=VALUE]...
// --x "x1,x2,..." --y "y1,y2,...". Parsed and validated once, with one message per problem.

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

// exp(logValue) when a double holds it as a normal number (or exactly 0), else null.
nlohmann::json plainFromLog(double logValue);

}  // namespace rfscope::cli
