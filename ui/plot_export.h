#pragma once
// Writes a plot as PNG (chosen size and DPI), PDF or SVG (vector), at a screen size in pixels or at
// a paper size (a figure width in cm or inches, text in points). Every file is written atomically:
// rendered to a temporary file beside the target, then renamed over it, so a failure leaves any
// previous file untouched. Failures throw std::runtime_error naming the path.

#include <QString>

namespace rfscope::ui {

class PlotView;

enum class PlotFormat { Png, Pdf, Svg };

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

// The format from a file name's extension (.png, .pdf, .svg), or false if there is none.
bool plotFormatFromPath(const QString& path, PlotFormat* format);

// Renders the view at the options' size (its on-screen state is restored afterwards).
void exportPlot(PlotView& view, const QString& path, PlotFormat format,
                const PlotExportOptions& options);

}  // namespace rfscope::ui
