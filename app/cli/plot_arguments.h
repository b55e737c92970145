#pragma once
// The figure outputs (--png/--pdf/--svg: one option per figure format of core/io/output_format.h),
// the plot's size (--width/--height/--dpi in pixels, or a paper size with
// --figure-width/--figure-height/--font-size) and layout (--title keep|drop,
// --legend auto|inside|right|below|none, --legend-columns N) of `rfscope-cli run`, parsed and
// checked before the run: a plot that could not be rendered (an empty file name, a PNG over
// kMaxPngPixels) is bad input, not a failure after minutes of computing.

#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/io/output_format.h"
#include "core/io/plot_export_options.h"

namespace rfscope::cli {

// One output file: its format (from the registry) and path.
struct OutputFile {
  const OutputFormat* format = nullptr;
  std::string path;
};

struct PlotOutputs {
  std::vector<OutputFile> files;  // figure formats, in the registry's order
  PlotExportOptions options;
  std::optional<bool> xLog, yLog;  // axis scales a preset asks for (unset: the table's hints)
};

// The option of an output format: "--" + its id.
std::string outputOption(const OutputFormat& format);

// The options' names, for Arguments.
const std::vector<std::string>& plotOptionNames();

// Throws UsageError on bad values.
PlotOutputs plotOutputs(const Arguments& arguments);

// A length with its unit — "8.5cm", "85mm", "3.35in", "241pt" — or a journal figure width,
// "one-column" (8.5 cm) or "two-column" (17.8 cm), in points (1/72 inch); throws UsageError
// naming the option.
double parseLengthPoints(const std::string& option, const std::string& text);

// The value of an output-file option, refusing an empty name ("" when the option is absent).
std::string outputPath(const Arguments& arguments, const std::string& option);

}  // namespace rfscope::cli
