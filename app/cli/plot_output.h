#pragma once
// --png/--pdf/--svg for rfscope-cli: the same plot the app shows, rendered headless, at a screen
// size in pixels (--width/--height) or at a paper size (--figure-width/--figure-height, text in
// points with --font-size).

#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/experiments/table.h"
#include "ui/plot_export.h"
#include "ui/plot_view.h"

namespace rfscope::cli {

struct PlotOutputs {
  std::vector<std::pair<std::string, std::string>> files;  // format ("png"/"pdf"/"svg"), path
  ui::PlotExportOptions options;
  ui::PlotViewState view;  // axis scales a preset asks for
};

// The options' names, for Arguments.
const std::vector<std::string>& plotOptionNames();

// Reads --png/--pdf/--svg/--width/--height/--dpi/--figure-width/--figure-height/--font-size;
// throws UsageError on bad values.
PlotOutputs plotOutputs(const Arguments& arguments);

// A length with its unit — "8.5cm", "85mm", "3.35in", "241pt" — or a journal figure width,
// "one-column" (8.5 cm) or "two-column" (17.8 cm), in points (1/72 inch); throws UsageError
// naming the option.
double parseLengthPoints(const std::string& option, const std::string& text);

// Writes every requested plot (starting Qt offscreen if needed); throws std::runtime_error naming
// the path on failure.
void writePlots(const Table& table, const PlotOutputs& outputs);

}  // namespace rfscope::cli
