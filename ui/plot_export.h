#pragma once
// Writes a plot as PNG (chosen size and DPI, at most kMaxPngPixels), PDF or SVG (vector), at a
// screen size in pixels or at a paper size (a figure width in cm or inches, text in points). Every
// file is rendered in memory, then written atomically (core/io/atomic_file.h: a temporary file
// renamed over the target), so a failure — a full disk included — leaves any previous file
// untouched. Failures throw std::runtime_error naming the path and the reason.

#include <QString>

#include "ui/plot_export_options.h"

class QCustomPlot;

namespace rfscope::ui {

class PlotView;

enum class PlotFormat { Png, Pdf, Svg };

// The format from a file name's extension (.png, .pdf, .svg), or false if there is none.
bool plotFormatFromPath(const QString& path, PlotFormat* format);

// Renders the plot at the options' size and writes it. At a paper size the caller sets the text
// size first (the PlotView overload does).
void exportPlot(QCustomPlot* plot, const QString& path, PlotFormat format,
                const PlotExportOptions& options);

// Renders the view at the options' size (its on-screen state is restored afterwards).
void exportPlot(PlotView& view, const QString& path, PlotFormat format,
                const PlotExportOptions& options);

}  // namespace rfscope::ui
