#include "app/cli/mc_arguments.h"

#include "core/data/input_limits.h"

namespace rfscope::cli {

McInvocation parseMcInvocation(const std::vector<std::string>& args) {
  std::vector<std::string> options = estimatorValueOptions();
  options.insert(options.end(),
                 {"--trials", "--seed", "--threads", "--path", "--quantiles", "--backend"});
  const Arguments arguments(args, options, {});
  McInvocation mc;
  mc.estimator = parseEstimatorArguments(arguments);

  MonteCarloRequest& request = mc.request;
  static_cast<EstimatorSpec&>(request) = mc.estimator.estimator;
  request.x = mc.estimator.x;
  request.y = mc.estimator.y;
  request.trials = parseInteger("--trials", arguments.value("--trials", "100000"));
  if (request.trials < kMinCliTrials || request.trials > kMaxCliTrials)
    throw UsageError("--trials: " + std::to_string(kMinCliTrials) + " to " +
                     std::to_string(kMaxCliTrials) +
                     " (the 95% interval needs two batches of 64 trials)");
  const long long seed = parseInteger("--seed", arguments.value("--seed", "1"));
  if (seed < 0) throw UsageError("--seed: must be a non-negative integer");
  request.seed = static_cast<std::uint64_t>(seed);
  const long long threads = parseInteger("--threads", arguments.value("--threads", "0"));
  if (threads < 0 || threads > 4096) throw UsageError("--threads: 0 (all cores) to 4096");
  mc.threads = static_cast<int>(threads);
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
  return mc;
}

}  // namespace rfscope::cli
