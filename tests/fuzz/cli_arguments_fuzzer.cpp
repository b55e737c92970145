// libFuzzer harness: the command lines of rfscope-cli run, analytic and mc, parsed and validated
// exactly as the executable does before it computes anything. The input is the argument list,
// NUL-separated; its first byte picks the command. InvalidParameter (UsageError included; exit 2 in
// rfscope-cli) is the expected answer to bad input; a crash, a leak, any other exception or a hang
// is a bug.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/cli/estimator_arguments.h"
#include "app/cli/mc_arguments.h"
#include "app/cli/run_arguments.h"
#include "core/params/invalid_parameter.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  std::vector<std::string> args(1);
  for (std::size_t i = 1; i < size && args.size() <= 64; ++i) {
    if (data[i] == 0)
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  using namespace rfscope::cli;
  try {
    switch (data[0] % 3) {
      case 0: {
        const RunInvocation run = parseRunInvocation(args);
        if (!run.experiment || !run.experiment->validate(run.parameters).empty()) std::abort();
        break;
      }
      case 1: {
        const Arguments arguments(args, estimatorValueOptions(), {});
        const EstimatorArguments estimator = parseEstimatorArguments(arguments);
        if (estimator.x.size() != estimator.y.size() || estimator.estimator.features < 1 ||
            !estimator.estimator.mechanism)
          std::abort();
        break;
      }
      default: {
        const McInvocation mc = parseMcInvocation(args);
        if (mc.request.trials < 128) std::abort();
        break;
      }
    }
  } catch (const rfscope::InvalidParameter&) {
  }
  return 0;
}
