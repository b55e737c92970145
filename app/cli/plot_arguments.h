#pragma once
// --png/--pdf/--svg/--width/--height/--dpi of `rfscope-cli run`, parsed and checked before the
// run: a plot that could not be rendered (an empty file name, a PNG over kMaxPngPixels) is bad
// input, not a failure after minutes of computing.

#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli_arguments.h"

namespace rfscope::cli {

struct PlotOutputs {
  std::vector<std::pair<std::string, std::string>> files;  // format ("png"/"pdf"/"svg"), path
  int width = 1200;
  int height = 800;
  int dpi = 96;
};

// Throws UsageError on bad values.
PlotOutputs plotOutputs(const Arguments& arguments);

// The value of an output-file option, refusing an empty name ("" when the option is absent).
std::string outputPath(const Arguments& arguments, const std::string& option);

}  // namespace rfscope::cli
