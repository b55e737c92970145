#include <iostream>

#include "app/cli/analytic_report.h"
#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/estimator_arguments.h"

namespace rfscope::cli {

int analyticCommand(const std::vector<std::string>& args) {
  const Arguments arguments(args, estimatorValueOptions(), {});
  const EstimatorArguments parsed = parseEstimatorArguments(arguments);
  const auto answer = availableAnalytic(parsed.estimator, PairInput(parsed.x, parsed.y));
  if (!answer) {
    std::cerr << "rfscope-cli: not available: " << answer.reason() << "\n";
    return 3;
  }
  const nlohmann::json out =
      analyticReport(parsed.estimator, static_cast<std::size_t>(parsed.x.size()), *answer);
  std::cout.precision(17);
  std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace rfscope::cli
