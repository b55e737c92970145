#include "app/cli/estimator_arguments.h"

#include <cmath>
#include <cstddef>
#include <sstream>
#include <utility>

#include "core/couplings/coupling.h"
#include "core/data/input_limits.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::cli {
namespace {

Eigen::VectorXd toVector(const std::vector<double>& values) {
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

}  // namespace

std::vector<std::string> estimatorValueOptions() {
  return {"--mechanism", "--kernel", "--coupling", "--m", "--param", "--x", "--y"};
}

EstimatorSpec parseEstimatorSpec(const Arguments& arguments) {
  if (!arguments.positionals().empty())
    throw UsageError("unexpected argument '" + arguments.positionals().front() + "'");
  if (!arguments.has("--mechanism")) throw UsageError("missing --mechanism");

  EstimatorSpec estimator;
  const std::string mechanismId = arguments.value("--mechanism");
  estimator.mechanism = findMechanism(mechanismId);
  if (!estimator.mechanism)
    throw UsageError("unknown mechanism '" + mechanismId + "' (see 'rfscope-cli list')");
  const std::string kernelText = arguments.value("--kernel", "gaussian");
  const auto kernel = kernelFromId(kernelText);
  if (!kernel) throw UsageError("unknown kernel '" + kernelText + "' (gaussian or softmax)");
  estimator.kernel = *kernel;
  estimator.coupling = parseCoupling(arguments.value("--coupling", "iid"), "--coupling");
  estimator.features = parseInteger("--m", arguments.value("--m", "1"));
  if (estimator.features < 1) throw UsageError("--m: the number of features must be at least 1");
  if (estimator.features > kMaxCliFeatures)
    throw UsageError("--m: at most " + std::to_string(kMaxCliFeatures) + " features");

  const auto specs = estimator.mechanism->parameters();
  applyAssignments(arguments, "--param", specs, "mechanism '" + mechanismId + "'",
                   estimator.parameters);
  for (const auto& spec : specs)
    if (!spec.optional && !estimator.parameters.contains(spec.key))
      estimator.parameters.set(spec.key, spec.defaultValue);
  if (const auto errors = validateParameters(specs, estimator.parameters); !errors.empty())
    throw UsageError(errors.front().message);
  return estimator;
}

std::string mechanismDimensionProblem(const Mechanism& mechanism, std::size_t d) {
  if (d <= static_cast<std::size_t>(mechanism.maxDimension())) return {};
  return mechanism.info().id + " takes at most " + std::to_string(mechanism.maxDimension()) +
         " dimensions" +
         (mechanism.maxDimension() < Mechanism::kMaxPairDimension ? " (it holds d × d matrices)"
                                                                  : "");
}

void checkEntryMagnitudes(const std::string& option, const double* values, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (std::abs(values[i]) > kMaxDataMagnitude) {
      std::ostringstream value;
      value << values[i];
      throw UsageError(option + ": entry " + std::to_string(i + 1) + ", " + value.str() +
                       ", is out of range: entries must lie within ±1e60 (the closed forms "
                       "multiply up to four entries, which would overflow a double)");
    }
}

EstimatorArguments parseEstimatorArguments(const Arguments& arguments) {
  if (!arguments.positionals().empty())
    throw UsageError("unexpected argument '" + arguments.positionals().front() + "'");
  for (const char* required : {"--mechanism", "--x", "--y"})
    if (!arguments.has(required)) throw UsageError(std::string("missing ") + required);

  EstimatorArguments out;
  out.estimator = parseEstimatorSpec(arguments);
  const std::vector<double> x = parseNumberList("--x", arguments.value("--x"));
  const std::vector<double> y = parseNumberList("--y", arguments.value("--y"));
  checkEntryMagnitudes("--x", x.data(), x.size());
  checkEntryMagnitudes("--y", y.data(), y.size());
  if (x.size() != y.size())
    throw UsageError("--x has " + std::to_string(x.size()) + " entries but --y has " +
                     std::to_string(y.size()));
  if (const std::string problem = mechanismDimensionProblem(*out.estimator.mechanism, x.size());
      !problem.empty())
    throw UsageError("--x has " + std::to_string(x.size()) + " entries: " + problem);
  out.x = toVector(x);
  out.y = toVector(y);
  return out;
}

}  // namespace rfscope::cli
