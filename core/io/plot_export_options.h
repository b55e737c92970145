#pragma once
// The size of an exported plot: a screen size in pixels or a paper size in points. Plain data (no
// Qt), so that the command line can parse and check it before anything runs.

#include <cmath>

namespace rfscope {

struct PlotExportOptions {
  int width = 1200;  // logical size in device-independent pixels (1/96 inch)
  int height = 800;
  int dpi = 96;  // PNG only: pixel size is width·dpi/96 × height·dpi/96
  // A figure at paper size, used instead of width/height when figureWidthPoints > 0: the figure is
  // figureWidthPoints × figureHeightPoints points (1/72 inch) with every text at textPoints points
  // (titles a little larger). PDF and SVG pages have exactly that size; a PNG has it at dpi.
  double figureWidthPoints = 0;
  double figureHeightPoints = 0;
  double textPoints = 8;
};

// Paper widths of journal figures (points): one column of a two-column page, the full page width.
inline constexpr double kOneColumnFigurePoints = 8.5 / 2.54 * 72;   // 8.5 cm
inline constexpr double kTwoColumnFigurePoints = 17.8 / 2.54 * 72;  // 17.8 cm

// Pixels of a PNG export with these options (checked against kMaxPngPixels).
inline double pngPixelCount(const PlotExportOptions& options) {
  if (options.figureWidthPoints > 0)
    return std::round(options.figureWidthPoints / 72 * options.dpi) *
           std::round(options.figureHeightPoints / 72 * options.dpi);
  const double scale = options.dpi / 96.0;
  return std::round(options.width * scale) * std::round(options.height * scale);
}

}  // namespace rfscope
