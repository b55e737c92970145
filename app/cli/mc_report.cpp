#include "app/cli/mc_report.h"

#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "app/cli/cli_arguments.h"
#include "app/cli/estimator_arguments.h"
#include "core/analytic/analytic_variance.h"
#include "core/io/json_export.h"
#include "core/io/log_value_json.h"
#include "core/math/failure_text.h"
#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "core/montecarlo/simd_target.h"

namespace rfscope::cli {
namespace {

nlohmann::json histogramToJson(const Histogram& h) {
  return {{"log_scale", h.logScale},
          {"edges", h.edges},
          {"counts", h.counts},
          {"samples", h.sampleCount}};
}

// --backend cuda: bad input when the plan is not one a GPU samples (exit 2), an environment problem
// when there is no usable device (exit 1, with the reason). The backend to run on, or null for the
// engine's own choice.
std::unique_ptr<MonteCarloBackend> explicitCudaBackend(const MonteCarloRequest& request) {
  if (request.backend != BackendChoice::Cuda) return nullptr;
  const auto plan = makeSamplingPlan(request);
  if (!plan) throw UsageError(plan.reason());
  if (!plan->fast)
    throw UsageError(
        "CUDA backend unavailable: it runs the fast path of the continuous mechanisms only (not "
        "pois/geom, --path full, simrf-plus, orf-norm-coupled or the quasi-Monte Carlo "
        "couplings)");
  auto backend = makeCudaBackend();
  if (!backend)
    throw std::runtime_error("--backend cuda: CUDA backend unavailable: " + backend.reason());
  return std::move(*backend);
}

// The closed form next to the estimate, or null with the reason: its failure (no closed form, a
// special function giving up at an extreme input) never costs the finished Monte Carlo result.
void addAnalytic(const MonteCarloRequest& request, const ParameterSet& parametersUsed,
                 nlohmann::json& out) {
  std::string note;
  try {
    const AnalyticAnswer exact =
        evaluateAnalytic(request.withParameters(parametersUsed), request.x, request.y);
    if (!exact.variance) {
      note = exact.variance.reason();
    } else if (!isFiniteOrZeroLog(exact.variance->logVariance)) {
      note = "the closed form gives no finite value at this input";
    } else {
      out["analytic"] = {{"variance", plainFromLog(exact.variance->logVariance)},
                         {"log_variance", logValueToJson(exact.variance->logVariance)}};
      return;
    }
  } catch (const std::exception& e) {
    note = "the closed form cannot be evaluated at this input: " + failureText(e);
  }
  out["analytic"] = nullptr;
  out["analytic_note"] = note;
}

}  // namespace

std::pair<std::unique_ptr<MonteCarloBackend>, std::string> makeMcBackend(const McInvocation& mc) {
  if (auto cuda = explicitCudaBackend(mc.request)) return {std::move(cuda), std::string()};
  const auto plan = makeSamplingPlan(mc.request);
  if (!plan) throw UsageError(plan.reason());
  auto selection = selectBackend(
      mc.request.backend, *plan,
      static_cast<double>(mc.request.trials) * static_cast<double>(mc.request.features),
      mc.threads);
  if (!selection) throw UsageError(selection.reason());
  return {std::move(selection->backend), std::move(selection->note)};
}

McReport runMcReport(const McInvocation& mc, const MonteCarloCallbacks& callbacks,
                     MonteCarloBackend* backend) {
  const MonteCarloRequest& request = mc.request;
  const auto cuda = backend ? nullptr : explicitCudaBackend(request);
  if (!backend) backend = cuda.get();
  const auto result = runMonteCarlo(request, callbacks, backend, mc.threads);
  if (!result) throw UsageError(result.reason());  // exit status 2, as for bad input
  if (!isFiniteOrZeroLog(result->logVariance))
    throw std::runtime_error("the Monte Carlo variance overflowed at this input");

  nlohmann::json quantiles = nlohmann::json::object();
  for (const auto& q : result->quantiles) {
    std::ostringstream level;
    level << q.level;
    quantiles[level.str()] = signedLogToJson(q.value);
  }
  // Every trial gave the same value: the variance is exactly 0, and so is its interval.
  const bool zero = result->logVariance == kNegativeInfinity;
  const double logStderr =
      zero ? kNegativeInfinity : result->logVariance + std::log(result->relativeStdErr);
  const double logLow = zero ? kNegativeInfinity : result->logCi95Low;
  const double logHigh = zero ? kNegativeInfinity : result->logCi95High;
  nlohmann::json out{{"mechanism", request.mechanism->info().id},
                     {"kernel", kernelId(request.kernel)},
                     {"coupling", couplingId(request.coupling)},
                     {"d", request.x.size()},
                     {"m", request.features},
                     {"path", result->path},
                     {"backend", result->backend},
                     {"backend_requested", backendChoiceId(request.backend)},
                     {"backend_note", result->backendNote},
                     // The CPU's instruction set for the SIMD trials (RFSCOPE_SIMD caps it).
                     {"simd_target", result->backend == "cpu" ? nlohmann::json(simdTargetId())
                                                              : nlohmann::json(nullptr)},
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
                     {"variance_relative_stderr",
                      zero ? nlohmann::json(nullptr) : finiteOrNull(result->relativeStdErr)},
                     {"ci95", {plainFromLog(logLow), plainFromLog(logHigh)}},
                     {"log_ci95", {logValueToJson(logLow), logValueToJson(logHigh)}},
                     {"quantiles", quantiles},
                     {"histogram", histogramToJson(result->histogram)},
                     {"heavy_tail", result->heavyTail},
                     {"heavy_tail_reasons", result->heavyTailReasons},
                     {"params", parameterSetToJson(result->parametersUsed)}};
  // What the exact moments say (null without closed-form moments; "inf" where none suffice).
  const auto finiteOrInf = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json("inf");
  };
  out["trials_needed"] =
      result->exactTail ? finiteOrInf(result->exactTail->trialsNeeded) : nlohmann::json(nullptr);
  out["error_skewness"] =
      result->exactTail ? finiteOrInf(result->exactTail->errorSkewness) : nlohmann::json(nullptr);
  addAnalytic(request, result->parametersUsed, out);
  return {std::move(out), result->cancelled};
}

std::string mcSettingsText(const McInvocation& mc) {
  const MonteCarloRequest& r = mc.request;
  const auto vector = [](const Eigen::VectorXd& v) {
    return nlohmann::json(std::vector<double>(v.data(), v.data() + v.size()));
  };
  return nlohmann::json{{"mechanism", r.mechanism ? r.mechanism->info().id : ""},
                        {"kernel", kernelId(r.kernel)},
                        {"coupling", couplingId(r.coupling)},
                        {"m", r.features},
                        {"params", parameterSetToJson(r.parameters)},
                        {"x", vector(r.x)},
                        {"y", vector(r.y)},
                        {"trials", r.trials},
                        {"seed", r.seed},
                        {"path", r.path == SamplingPath::Fast ? "fast" : "full"},
                        {"quantiles", r.quantileLevels},
                        {"stored", r.storedSamples},
                        {"bins", r.histogramBins},
                        {"simplex_plus", r.simplexPlusIterations}}
      .dump();
}

}  // namespace rfscope::cli
