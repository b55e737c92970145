#include <iostream>
#include <tuple>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/estimator_arguments.h"
#include "app/cli/failure_text.h"
#include "core/analytic/analytic_variance.h"
#include "core/io/json_export.h"

namespace rfscope::cli {

int analyticCommand(const std::vector<std::string>& args) {
  const Arguments arguments(args, estimatorValueOptions(), {});
  const EstimatorArguments estimator = parseEstimatorArguments(arguments);

  AnalyticRequest request;
  request.mechanism = estimator.mechanism;
  request.kernel = estimator.kernel;
  request.coupling = estimator.coupling;
  request.features = estimator.features;
  request.parameters = estimator.parameters;
  // No closed-form value (none exists, or a special function gives up at this input) is exit 3
  // with the reason, never an uncaught exception or a "nan" in the output.
  AnalyticAnswer answer;
  try {
    answer = evaluateAnalytic(request, estimator.x, estimator.y);
  } catch (const std::exception& e) {
    std::cerr << "rfscope-cli: not available: the closed form cannot be evaluated at this input: "
              << failureText(e) << "\n";
    return 3;
  }
  if (!answer.available) {
    std::cerr << "rfscope-cli: not available: " << answer.unavailableReason << "\n";
    return 3;
  }
  for (const auto& [name, value, present] :
       {std::tuple{"log_variance", answer.logVariance, true},
        std::tuple{"log_kernel_value", answer.logKernelValue, true},
        std::tuple{"log_conformity", answer.logConformity, answer.hasConformity},
        std::tuple{"log_abs_orthogonality_gap", answer.logAbsOrthogonalityGap,
                   answer.hasOrthogonalityGap}})
    if (present && !isFiniteOrZeroLog(value)) {
      std::cerr << "rfscope-cli: not available: the closed form gives no finite " << name
                << " at this input\n";
      return 3;
    }

  nlohmann::json out{{"mechanism", estimator.mechanismId},
                     {"kernel", kernelId(estimator.kernel)},
                     {"coupling", estimator.coupling},
                     {"d", estimator.x.size()},
                     {"m", estimator.features},
                     {"kernel_value", plainFromLog(answer.logKernelValue)},
                     {"log_kernel_value", logValueToJson(answer.logKernelValue)},
                     {"variance", plainFromLog(answer.logVariance)},
                     {"log_variance", logValueToJson(answer.logVariance)},
                     {"params", parameterSetToJson(answer.parametersUsed)}};
  if (answer.hasConformity) {  // positive features: the coupling's RF-conformity (SimRF eq. 10)
    out["conformity"] = plainFromLog(answer.logConformity);
    out["log_conformity"] = logValueToJson(answer.logConformity);
  }
  if (answer.hasOrthogonalityGap) {  // Var_IID - Var_ORF (SimRF eqs. 25, 26); negative: ORF worse
    const nlohmann::json magnitude = plainFromLog(answer.logAbsOrthogonalityGap);
    out["orthogonality_gap"] =
        magnitude.is_number()
            ? nlohmann::json(answer.orthogonalityGapSign * magnitude.get<double>())
            : magnitude;
    out["log_abs_orthogonality_gap"] = logValueToJson(answer.logAbsOrthogonalityGap);
  }
  std::cout.precision(17);
  std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace rfscope::cli
