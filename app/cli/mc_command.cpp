// rfscope-cli mc: Monte Carlo estimate of the variance of one estimator at one pair.
#include <cmath>
#include <iostream>
#include <sstream>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/estimator_arguments.h"
#include "core/analytic/analytic_variance.h"
#include "core/io/json_export.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope::cli {
namespace {

nlohmann::json signedLogToJson(const SignedLog& value) {
  const double plain = value.value();
  return std::isfinite(plain) && (plain == 0 || std::isnormal(plain)) ? nlohmann::json(plain)
                                                                      : nlohmann::json(nullptr);
}

nlohmann::json histogramToJson(const Histogram& h) {
  return {{"log_scale", h.logScale},
          {"edges", h.edges},
          {"counts", h.counts},
          {"samples", h.sampleCount}};
}

}  // namespace

int mcCommand(const std::vector<std::string>& args) {
  std::vector<std::string> options = estimatorValueOptions();
  options.insert(options.end(),
                 {"--trials", "--seed", "--threads", "--path", "--quantiles", "--backend"});
  const Arguments arguments(args, options, {});
  EstimatorArguments estimator = parseEstimatorArguments(arguments);

  MonteCarloRequest request;
  static_cast<EstimatorSpec&>(request) = estimator.estimator;
  request.x = std::move(estimator.x);
  request.y = std::move(estimator.y);
  request.trials = parseInteger("--trials", arguments.value("--trials", "100000"));
  const long long seed = parseInteger("--seed", arguments.value("--seed", "1"));
  if (seed < 0) throw UsageError("--seed: must be a non-negative integer");
  request.seed = static_cast<std::uint64_t>(seed);
  const long long threads = parseInteger("--threads", arguments.value("--threads", "0"));
  if (threads < 0 || threads > 4096) throw UsageError("--threads: 0 (all cores) to 4096");
  const std::string path = arguments.value("--path", "fast");
  if (path != "fast" && path != "full") throw UsageError("--path: 'fast' or 'full'");
  request.path = path == "fast" ? SamplingPath::Fast : SamplingPath::Full;
  if (arguments.has("--quantiles")) {
    request.quantileLevels = parseNumberList("--quantiles", arguments.value("--quantiles"));
    for (double level : request.quantileLevels)
      if (!(level >= 0 && level <= 1)) throw UsageError("--quantiles: levels lie in [0, 1]");
  }

  const auto backend = parseBackendChoice(arguments.value("--backend", "auto"));
  if (!backend) throw UsageError("--backend: 'cpu', 'cuda' or 'auto'");
  request.backend = *backend;

  const auto result = runMonteCarlo(request, {}, nullptr, static_cast<int>(threads));
  if (!result) throw UsageError(result.reason());  // exit status 2, as for bad input

  nlohmann::json quantiles = nlohmann::json::object();
  for (const auto& q : result->quantiles) {
    std::ostringstream level;
    level << q.level;
    quantiles[level.str()] = signedLogToJson(q.value);
  }
  const double logStderr = result->logVariance + std::log(result->relativeStdErr);
  nlohmann::json out{
      {"mechanism", request.mechanism->info().id},
      {"kernel", kernelId(request.kernel)},
      {"coupling", couplingId(request.coupling)},
      {"d", request.x.size()},
      {"m", request.features},
      {"path", result->path},
      {"backend", result->backend},
      {"backend_requested", backendChoiceId(*backend)},
      {"backend_note", result->backendNote},
      {"seed", request.seed},
      {"trials", result->trials},
      {"seconds", result->seconds},
      {"features_per_second", result->featuresPerSecond},
      {"kernel_value", plainFromLog(result->logKernelValue)},
      {"log_kernel_value", logValueToJson(result->logKernelValue)},
      {"mean", signedLogToJson(result->mean)},
      {"variance", plainFromLog(result->logVariance)},
      {"log_variance", logValueToJson(result->logVariance)},
      {"variance_stderr", plainFromLog(logStderr)},
      {"variance_relative_stderr", finiteOrNull(result->relativeStdErr)},
      {"ci95", {plainFromLog(result->logCi95Low), plainFromLog(result->logCi95High)}},
      {"log_ci95", {logValueToJson(result->logCi95Low), logValueToJson(result->logCi95High)}},
      {"quantiles", quantiles},
      {"histogram", histogramToJson(result->histogram)},
      {"heavy_tail", result->heavyTail},
      {"heavy_tail_reasons", result->heavyTailReasons},
      {"params", parameterSetToJson(result->parametersUsed)}};

  const AnalyticAnswer exact =
      evaluateAnalytic(request.withParameters(result->parametersUsed), request.x, request.y);
  out["analytic"] =
      exact.variance ? nlohmann::json{{"variance", plainFromLog(exact.variance->logVariance)},
                                      {"log_variance", logValueToJson(exact.variance->logVariance)}}
                     : nlohmann::json(nullptr);
  std::cout.precision(17);
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace rfscope::cli
