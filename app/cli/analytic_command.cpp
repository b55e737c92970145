#include <iostream>
#include <optional>
#include <utility>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/estimator_arguments.h"
#include "app/cli/failure_text.h"
#include "core/analytic/analytic_variance.h"
#include "core/io/json_export.h"

namespace rfscope::cli {

int analyticCommand(const std::vector<std::string>& args) {
  const Arguments arguments(args, estimatorValueOptions(), {});
  const EstimatorArguments parsed = parseEstimatorArguments(arguments);
  const EstimatorSpec& estimator = parsed.estimator;
  // No closed-form value (none exists, or a special function gives up at this input) is exit 3
  // with the reason, never an uncaught exception or a "nan" in the output.
  AnalyticAnswer answer;
  try {
    answer = evaluateAnalytic(estimator, parsed.x, parsed.y);
  } catch (const std::exception& e) {
    std::cerr << "rfscope-cli: not available: the closed form cannot be evaluated at this input: "
              << failureText(e) << "\n";
    return 3;
  }
  if (!answer.variance) {  // no closed form: a status, not an error of the input
    std::cerr << "rfscope-cli: not available: " << answer.variance.reason() << "\n";
    return 3;
  }
  const AnalyticVariance& variance = *answer.variance;
  for (const auto& [name, value] :
       {std::pair{"log_variance", std::optional<double>(variance.logVariance)},
        std::pair{"log_kernel_value", std::optional<double>(answer.logKernelValue)},
        std::pair{"log_conformity", variance.logConformity},
        std::pair{"log_abs_orthogonality_gap", variance.logAbsOrthogonalityGap}})
    if (value && !isFiniteOrZeroLog(*value)) {
      std::cerr << "rfscope-cli: not available: the closed form gives no finite " << name
                << " at this input\n";
      return 3;
    }

  nlohmann::json out{{"mechanism", estimator.mechanism->info().id},
                     {"kernel", kernelId(estimator.kernel)},
                     {"coupling", couplingId(estimator.coupling)},
                     {"d", parsed.x.size()},
                     {"m", estimator.features},
                     {"kernel_value", plainFromLog(answer.logKernelValue)},
                     {"log_kernel_value", logValueToJson(answer.logKernelValue)},
                     {"variance", plainFromLog(variance.logVariance)},
                     {"log_variance", logValueToJson(variance.logVariance)},
                     {"params", parameterSetToJson(answer.parametersUsed)}};
  if (variance.logConformity) {  // positive features: the coupling's RF-conformity (SimRF eq. 10)
    out["conformity"] = plainFromLog(*variance.logConformity);
    out["log_conformity"] = logValueToJson(*variance.logConformity);
  }
  if (variance.logAbsOrthogonalityGap) {  // Var_IID - Var_ORF (SimRF eqs. 25, 26); < 0: ORF worse
    const nlohmann::json magnitude = plainFromLog(*variance.logAbsOrthogonalityGap);
    out["orthogonality_gap"] =
        magnitude.is_number()
            ? nlohmann::json(variance.orthogonalityGapSign * magnitude.get<double>())
            : magnitude;
    out["log_abs_orthogonality_gap"] = logValueToJson(*variance.logAbsOrthogonalityGap);
  }
  std::cout.precision(17);
  std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace rfscope::cli
