// Monte Carlo: the mc command's run and JSON object.
#include <atomic>

#include <pybind11/stl.h>

#include "app/cli/mc_report.h"
#include "app/python/bindings.h"
#include "app/python/interruptible.h"

namespace py = pybind11;

namespace rfscope::python {
namespace {

// The mc command's JSON text for its command-line arguments (--x/--y included, as the command
// line takes them).
std::string monteCarloJson(const std::vector<std::string>& arguments) {
  const cli::McInvocation mc = cli::parseMcInvocation(arguments);
  std::atomic<bool> cancel{false};
  cli::McReport report;
  MonteCarloCallbacks callbacks;
  callbacks.cancelled = [&cancel] { return cancel.load(std::memory_order_relaxed); };
  runInterruptibly([&] { report = cli::runMcReport(mc, callbacks); }, cancel);
  return report.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void bindMonteCarlo(py::module_& module) {
  module.def("_monte_carlo", &monteCarloJson, py::arg("arguments"),
             "The JSON object of `rfscope-cli mc ARGUMENTS...`.");
}

}  // namespace rfscope::python
