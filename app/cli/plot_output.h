#pragma once
// Writes the plots of `rfscope-cli run`: the same plot the app shows, rendered headless.

#include "app/cli/plot_arguments.h"
#include "core/experiments/table.h"

namespace rfscope::cli {

// Writes every requested plot (starting Qt offscreen if needed); throws std::runtime_error naming
// the path on failure.
void writePlots(const Table& table, const PlotOutputs& outputs);

}  // namespace rfscope::cli
