// rfscope-cli mc: Monte Carlo estimate of the variance of one estimator at one pair.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/mc_report.h"

namespace rfscope::cli {

int mcCommand(const std::vector<std::string>& args) {
  const McReport report = runMcReport(parseMcInvocation(args));
  std::cout.precision(17);
  std::cout << report.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace rfscope::cli
