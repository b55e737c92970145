// rfscope-cli mc: Monte Carlo estimate of the variance of one estimator at one pair; in an MPI job
// every rank computes a share of the trials and rank 0 prints the result.
#include <iostream>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/mc_report.h"
#include "app/cli/process_group.h"
#include "app/cli/stderr_progress.h"

namespace rfscope::cli {

int mcCommand(const std::vector<std::string>& args) {
  const ProcessGroup& group = processGroup();
  std::optional<McInvocation> mc;
  std::pair<std::unique_ptr<MonteCarloBackend>, std::string> local;
  std::exception_ptr failure;
  try {
    mc = parseMcInvocation(args);
    if (group.distributed()) local = makeMcBackend(*mc);
  } catch (...) {
    failure = std::current_exception();
  }
  group.agree(failure);  // bad input: every rank stops here, rank 0 says why
  if (group.distributed()) group.agreeOnWork(mcSettingsText(*mc));

  std::optional<McReport> report;
  StderrProgress progress;  // on rank 0: a line on stderr once the run has taken a second
  MonteCarloCallbacks callbacks;
  callbacks.progress = [&progress](double fraction) { progress.reportProgress(fraction); };
  if (!group.distributed()) {
    report = runMcReport(*mc, callbacks);
  } else if (!group.isRoot()) {  // compute the leaves rank 0 hands out
    group.serveLeaves(*local.first, *makeSamplingPlan(mc->request));
    return 0;
  } else {
    const auto backend = group.monteCarloBackend(std::move(local.first), std::move(local.second));
    report = runMcReport(*mc, callbacks, backend.get());
  }  // the backend, gone, has told the other ranks the run is over
  progress.finish();
  group.settle();
  std::cout.precision(17);
  std::cout << report->json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace rfscope::cli
