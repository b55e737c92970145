#include "app/cli/analytic_report.h"

#include <optional>
#include <utility>

#include "app/cli/estimator_arguments.h"
#include "core/io/json_export.h"
#include "core/io/log_value_json.h"
#include "core/math/failure_text.h"

namespace rfscope::cli {

Outcome<AnalyticAnswer> availableAnalytic(const EstimatorSpec& estimator, const PairInput& pair) {
  // No closed-form value (none exists, or a special function gives up at this input: both are
  // reasons from evaluateAnalytic itself) is a reason, never an uncaught exception or a "nan" in
  // the output; whatever else evaluateAnalytic throws is reported the same way, here at the edge.
  AnalyticAnswer answer;
  try {
    answer = evaluateAnalytic(estimator, pair);
  } catch (const std::exception& e) {
    return Outcome<AnalyticAnswer>::unavailable(
        "the closed form cannot be evaluated at this input: " + failureText(e));
  }
  if (!answer.variance)  // no closed form: a status, not an error of the input
    return Outcome<AnalyticAnswer>::unavailable(answer.variance.reason());
  const AnalyticVariance& variance = *answer.variance;
  for (const auto& [name, value] :
       {std::pair{"log_variance", std::optional<double>(variance.logVariance)},
        std::pair{"log_kernel_value", std::optional<double>(answer.logKernelValue)},
        std::pair{"log_conformity", variance.logConformity},
        std::pair{"log_abs_orthogonality_gap", variance.logAbsOrthogonalityGap},
        std::pair{"log_abs_bias", variance.logAbsBias}})
    if (value && !isFiniteOrZeroLog(*value))
      return Outcome<AnalyticAnswer>::unavailable(std::string("the closed form gives no finite ") +
                                                  name + " at this input");
  return answer;
}

nlohmann::json analyticReport(const EstimatorSpec& estimator, std::size_t d,
                              const AnalyticAnswer& answer) {
  const AnalyticVariance& variance = *answer.variance;
  nlohmann::json out{{"mechanism", estimator.mechanism->info().id},
                     {"kernel", kernelId(estimator.kernel)},
                     {"coupling", couplingId(estimator.coupling)},
                     {"d", d},
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
  if (variance.logAbsBias) {  // a biased estimator (orf-fixed-norm): E K̂ - K and Var + bias²
    const nlohmann::json magnitude = plainFromLog(*variance.logAbsBias);
    out["bias"] = magnitude.is_number()
                      ? nlohmann::json(variance.biasSign * magnitude.get<double>())
                      : magnitude;
    out["log_abs_bias"] = logValueToJson(*variance.logAbsBias);
    out["mse"] = plainFromLog(variance.logMeanSquaredError());
    out["log_mse"] = logValueToJson(variance.logMeanSquaredError());
  }
  return out;
}

}  // namespace rfscope::cli
