#include <cmath>
#include <iostream>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "core/analytic/analytic_variance.h"
#include "core/couplings/coupling.h"
#include "core/io/json_export.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::cli {
namespace {

Eigen::VectorXd toVector(const std::vector<double>& values) {
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

// exp(logValue) when a double holds it as a normal number (or exactly 0), else null.
nlohmann::json plainFromLog(double logValue) {
  if (logValue == kNegativeInfinity) return 0.0;
  const double value = std::exp(logValue);
  return std::isnormal(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace

int analyticCommand(const std::vector<std::string>& args) {
  const Arguments arguments(
      args, {"--mechanism", "--kernel", "--coupling", "--m", "--param", "--x", "--y"}, {});
  if (!arguments.positionals().empty())
    throw UsageError("unexpected argument '" + arguments.positionals().front() + "'");
  for (const char* required : {"--mechanism", "--x", "--y"})
    if (!arguments.has(required)) throw UsageError(std::string("missing ") + required);

  const std::string mechanismId = arguments.value("--mechanism");
  const Mechanism* mechanism = findMechanism(mechanismId);
  if (!mechanism) throw UsageError("unknown mechanism '" + mechanismId + "' (see 'rfscope-cli list')");
  const std::string kernelText = arguments.value("--kernel", "gaussian");
  const auto kernel = kernelFromId(kernelText);
  if (!kernel) throw UsageError("unknown kernel '" + kernelText + "' (gaussian or softmax)");
  const std::string coupling = arguments.value("--coupling", "iid");
  if (!findCoupling(coupling)) throw UsageError("unknown coupling '" + coupling + "'");
  const long long features = parseInteger("--m", arguments.value("--m", "1"));
  if (features < 1) throw UsageError("--m: the number of features must be at least 1");

  const std::vector<double> x = parseNumberList("--x", arguments.value("--x"));
  const std::vector<double> y = parseNumberList("--y", arguments.value("--y"));
  if (x.size() != y.size())
    throw UsageError("--x has " + std::to_string(x.size()) + " entries but --y has " +
                     std::to_string(y.size()));

  const auto specs = mechanism->parameters();
  ParameterSet params;
  for (const auto& assignment : arguments.all("--param")) {
    const auto [key, text] = splitAssignment("--param", assignment);
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) throw UsageError("mechanism '" + mechanismId + "' has no parameter '" + key + "'");
    std::string error;
    const auto value = parseParameterValue(*spec, text, &error);
    if (!value) throw UsageError(error);
    params.set(key, *value);
  }
  for (const auto& spec : specs)
    if (!spec.optional && !params.contains(spec.key)) params.set(spec.key, spec.defaultValue);
  if (const auto errors = validateParameters(specs, params); !errors.empty())
    throw UsageError(errors.front().message);

  AnalyticRequest request;
  request.mechanism = mechanism;
  request.kernel = *kernel;
  request.coupling = coupling;
  request.features = features;
  request.parameters = params;
  const AnalyticAnswer answer = evaluateAnalytic(request, toVector(x), toVector(y));
  if (!answer.available) {
    std::cerr << "rfscope-cli: not available: " << answer.unavailableReason << "\n";
    return 3;
  }

  const nlohmann::json out{{"mechanism", mechanismId},
                           {"kernel", kernelId(*kernel)},
                           {"coupling", coupling},
                           {"d", x.size()},
                           {"m", features},
                           {"kernel_value", plainFromLog(answer.logKernelValue)},
                           {"log_kernel_value", logValueToJson(answer.logKernelValue)},
                           {"variance", plainFromLog(answer.logVariance)},
                           {"log_variance", logValueToJson(answer.logVariance)},
                           {"params", parameterSetToJson(answer.parametersUsed)}};
  std::cout.precision(17);
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace rfscope::cli
