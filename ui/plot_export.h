#pragma once
// Writes a plot in a figure format (ui/figure_writer.h: PNG at a chosen size and DPI, at most
// kMaxPngPixels; PDF or SVG, vector), at a screen size in pixels or at a paper size (a figure width
// in cm or inches, text in points). Every file is rendered in memory, then written atomically
// (core/io/atomic_file.h: a temporary file renamed over the target), so a failure — a full disk
// included — leaves any previous file untouched.
//
// Errors: options out of range are the user's input, checked before anything is rendered and
// returned as a PlotExportResult with the reason; a failure to render or write throws
// std::runtime_error naming the path and the reason.

#include <QString>
#include <string>

#include "core/io/plot_export_options.h"
#include "ui/figure_writer.h"

class QCustomPlot;

namespace rfscope::ui {

class PlotView;

// An export's outcome: written, or refused with the reason (nothing rendered or written).
struct PlotExportResult {
  std::string problem;  // empty when the plot was written
  explicit operator bool() const { return problem.empty(); }
};

// Why a plot cannot be exported with these options in this format ("" when it can): sizes out of
// range, a PNG over kMaxPngPixels.
std::string plotExportProblem(const PlotExportOptions& options, const FigureWriter& writer);

// Renders the plot at the options' size and writes it. The plot is drawn as it is laid out: its
// text size, title and legend are the caller's (the PlotView overload sets them).
PlotExportResult exportPlot(QCustomPlot* plot, const QString& path, const FigureWriter& writer,
                            const PlotExportOptions& options);

// Renders the view at the options' size, laid out as they ask (text size, title, legend; at a
// paper size the figure's layout of ui/plot_view.h), its on-screen state restored afterwards.
PlotExportResult exportPlot(PlotView& view, const QString& path, const FigureWriter& writer,
                            const PlotExportOptions& options);

}  // namespace rfscope::ui
