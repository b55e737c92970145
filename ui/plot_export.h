#pragma once
// Writes a plot as PNG (chosen size and DPI, at most kMaxPngPixels), PDF or SVG (vector). Every
// file is rendered in memory, then written atomically (core/io/atomic_file.h: a temporary file
// renamed over the target), so a failure — a full disk included — leaves any previous file
// untouched. Failures throw std::runtime_error naming the path and the reason.

#include <QString>

class QCustomPlot;

namespace rfscope::ui {

enum class PlotFormat { Png, Pdf, Svg };

struct PlotExportOptions {
  int width = 1200;  // logical size in device-independent pixels (1/96 inch)
  int height = 800;
  int dpi = 96;  // PNG only: pixel size is width·dpi/96 × height·dpi/96
};

// The format from a file name's extension (.png, .pdf, .svg), or false if there is none.
bool plotFormatFromPath(const QString& path, PlotFormat* format);

void exportPlot(QCustomPlot* plot, const QString& path, PlotFormat format,
                const PlotExportOptions& options);

}  // namespace rfscope::ui
