#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QFile>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/data/input_limits.h"
#include "core/io/atomic_file.h"
#include "ui/plot_view.h"

namespace rfscope::ui {
namespace {

constexpr double kPixelsPerPoint = 96.0 / 72.0;

// Every format is rendered into memory and then written by writeFileAtomically: Qt's file writers
// (QSvgGenerator, QPdfWriter, QImage::save) do not report a full disk, and wrote over the old file.

FigureGeometry geometryOf(const PlotExportOptions& options) {
  FigureGeometry g;
  g.figure = options.figureWidthPoints > 0;
  if (g.figure) {
    g.pagePoints = QSizeF(options.figureWidthPoints, options.figureHeightPoints);
    g.width = static_cast<int>(std::lround(options.figureWidthPoints * kPixelsPerPoint));
    g.height = static_cast<int>(std::lround(options.figureHeightPoints * kPixelsPerPoint));
  } else {
    g.width = options.width;
    g.height = options.height;
    g.pagePoints = QSizeF(g.width / kPixelsPerPoint, g.height / kPixelsPerPoint);
  }
  return g;
}

// The view laid out as the options ask for the export's duration (text size, title, legend),
// then back to its screen look, whatever happens in between.
class FigureSetup {
 public:
  FigureSetup(PlotView& view, const PlotExportOptions& options)
      : view_(view), figure_(options.figureWidthPoints > 0) {
    // A figure may widen the ranges for its texts and legend: the view keeps its own.
    for (QCPAxis* axis : axes())
      ranges_.push_back(axis->range());
    FigureLayout layout;
    layout.paper = figure_;
    layout.title = exportShowsTitle(options);
    layout.legend = options.legend;
    layout.legendColumns = options.legendColumns;
    if (figure_) view_.setTextPointSize(options.textPoints);
    view_.setFigureLayout(layout);
    view_.setExporting(true);  // a saved result's mark stays out of the file
  }
  ~FigureSetup() {
    view_.setExporting(false);
    view_.setFigureLayout({});
    if (figure_) view_.setTextPointSize(std::nullopt);
    const auto all = axes();
    for (std::size_t i = 0; i < all.size(); ++i)
      all[i]->setRange(ranges_[i]);
  }
  FigureSetup(const FigureSetup&) = delete;
  FigureSetup& operator=(const FigureSetup&) = delete;

 private:
  std::array<QCPAxis*, 3> axes() const {
    QCustomPlot* plot = view_.plot();
    return {plot->xAxis, plot->yAxis, plot->yAxis2};
  }

  PlotView& view_;
  bool figure_;
  std::vector<QCPRange> ranges_;
};

}  // namespace

std::string plotExportProblem(const PlotExportOptions& options, const FigureWriter& writer) {
  if (options.figureWidthPoints > 0) {
    if (options.figureWidthPoints < 36 || options.figureHeightPoints < 36 ||
        options.figureWidthPoints > 2880 || options.figureHeightPoints > 2880)
      return "figure size must be between 0.5 and 40 inches (1.27 and 101.6 cm)";
    if (options.textPoints < 4 || options.textPoints > 48)
      return "text size must be between 4 and 48 points";
  } else if (options.width < 16 || options.height < 16 || options.width > 20000 ||
             options.height > 20000) {
    return "plot size must be between 16 and 20000 pixels";
  }
  if (options.dpi < 24 || options.dpi > 2400) return "DPI must be between 24 and 2400";
  if (options.legendColumns < 0 || options.legendColumns > kMaxLegendColumns)
    return "legend columns must be between 1 and " + std::to_string(kMaxLegendColumns);
  if (!writer.format().raster) return {};
  const double pixels = pngPixelCount(options);
  if (pixels > kMaxPngPixels)
    return "a " + QString::fromStdString(writer.format().id).toUpper().toStdString() + " of " +
           std::to_string(static_cast<long long>(pixels / 1e6)) +
           " megapixels is over the limit of 100 megapixels: lower the size or DPI";
  return {};
}

PlotExportResult exportPlot(QCustomPlot* plot, const QString& path, const FigureWriter& writer,
                            const PlotExportOptions& options) {
  if (std::string problem = plotExportProblem(options, writer); !problem.empty())
    return {std::move(problem)};
  const QByteArray bytes = writer.render(plot, geometryOf(options), options);
  if (bytes.isEmpty())
    throw std::runtime_error(
        ("cannot write '" + path + "': the plot could not be rendered").toStdString());
  writeFileAtomically(QFile::encodeName(path).toStdString(),
                      std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  return {};
}

PlotExportResult exportPlot(PlotView& view, const QString& path, const FigureWriter& writer,
                            const PlotExportOptions& options) {
  if (std::string problem = plotExportProblem(options, writer); !problem.empty())
    return {std::move(problem)};
  const FigureSetup setup(view, options);
  return exportPlot(view.plot(), path, writer, options);
}

}  // namespace rfscope::ui
