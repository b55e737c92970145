#pragma once
// What `rfscope-cli mc` runs and reports, shared with the Python module: the Monte Carlo run of a
// parsed invocation (on the backend --backend names) and its JSON object.

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <utility>

#include "app/cli/mc_arguments.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope::cli {

struct McReport {
  nlohmann::json json;     // the object the command prints
  bool cancelled = false;  // callbacks.cancelled stopped the run (json holds the trials so far)
};

// Runs the invocation's Monte Carlo. Throws UsageError for a request that cannot be sampled (or
// not on the CUDA backend asked for), std::runtime_error for an environment problem (no usable
// CUDA device) or a variance that overflows.
// backend: where to run (null: the one --backend names, as the engine chooses).
McReport runMcReport(const McInvocation& mc, const MonteCarloCallbacks& callbacks = {},
                     MonteCarloBackend* backend = nullptr);

// The backend --backend names for this invocation, made here (an MPI rank's own), and the note of
// Auto's choice. Throws as runMcReport does.
std::pair<std::unique_ptr<MonteCarloBackend>, std::string> makeMcBackend(const McInvocation& mc);

// The parsed run as canonical text, for checking that every rank of an MPI job runs the same one.
std::string mcSettingsText(const McInvocation& mc);

}  // namespace rfscope::cli
