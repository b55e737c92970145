#pragma once
// --png/--pdf/--svg for rfscope-cli: the same plot the app shows, rendered headless.

#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/experiments/table.h"

namespace rfscope::cli {

struct PlotOutputs {
  std::vector<std::pair<std::string, std::string>> files;  // format ("png"/"pdf"/"svg"), path
  int width = 1200;
  int height = 800;
  int dpi = 96;
};

// Reads --png/--pdf/--svg/--width/--height/--dpi; throws UsageError on bad values.
PlotOutputs plotOutputs(const Arguments& arguments);

// Writes every requested plot (starting Qt offscreen if needed); throws std::runtime_error naming
// the path on failure.
void writePlots(const Table& table, const PlotOutputs& outputs);

}  // namespace rfscope::cli
