#pragma once
// A figure writer renders a plot into the bytes of one figure format (PNG, PDF, SVG): the Qt half
// of a figure format of core/io/output_format.h, whose registry entry names the format's id,
// extension and label. The writers are registered once here; the CLI (run --png/--pdf/--svg), the
// app's export and its save dialog find them by the format's id or a file's extension.

#include <QByteArray>
#include <QSizeF>
#include <QString>
#include <string_view>
#include <vector>

#include "core/io/output_format.h"
#include "core/io/plot_export_options.h"

class QCustomPlot;

namespace rfscope::ui {

// The canvas (device-independent pixels, 1/96 inch) and the page (points) of an export.
struct FigureGeometry {
  int width = 0, height = 0;
  QSizeF pagePoints;
  bool figure = false;  // a paper size (options.figureWidthPoints > 0)
};

class FigureWriter {
 public:
  virtual ~FigureWriter() = default;
  virtual const OutputFormat& format() const = 0;
  // The whole file, rendered in memory; empty when the plot could not be rendered.
  virtual QByteArray render(QCustomPlot* plot, const FigureGeometry& geometry,
                            const PlotExportOptions& options) const = 0;
};

// Every figure writer, in the order of the formats' registry.
const std::vector<const FigureWriter*>& allFigureWriters();
const FigureWriter* findFigureWriter(std::string_view id);  // nullptr if unknown
// The writer of a registered figure format (asserted).
const FigureWriter& figureWriter(std::string_view id);
// The writer of a file name's extension (any letter case), or nullptr.
const FigureWriter* figureWriterForPath(const QString& path);

// Appends a writer defined outside this file (its format registered with registerOutputFormat
// first); as registerOutputFormat, before anything reads the registry concurrently.
void registerFigureWriter(const FigureWriter& writer);

// A save dialog's filter of every format of a kind: "PNG image (*.png);;PDF document (*.pdf);;…".
QString fileDialogFilter(OutputKind kind);
// The extensions of a kind's formats for a message: ".png, .pdf or .svg".
QString extensionList(OutputKind kind);
// The format of a kind that a dialog's chosen filter names (the first of the kind if none).
const OutputFormat& formatOfFilter(OutputKind kind, const QString& filter);

}  // namespace rfscope::ui
