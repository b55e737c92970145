#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <cmath>
#include <stdexcept>

#include "core/data/input_limits.h"
#include "core/io/atomic_file.h"
#include "ui/plot_view.h"

namespace rfscope::ui {
namespace {

// Every format draws on a canvas of device-independent pixels (1/96 inch), the unit QCustomPlot
// lays text out in, so that boxes fit their text in every format.
constexpr double kPixelsPerPoint = 96.0 / 72.0;
constexpr int kCanvasDpi = 96;

// Every format is rendered into memory and then written by writeFileAtomically: Qt's file writers
// (QSvgGenerator, QPdfWriter, QImage::save) do not report a full disk, and wrote over the old file.

// The canvas (pixels) and the page (points) of an export.
struct Geometry {
  int width = 0, height = 0;
  QSizeF pagePoints;
  bool figure = false;
};

Geometry geometryOf(const PlotExportOptions& options) {
  Geometry g;
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

void checkOptions(const PlotExportOptions& options, PlotFormat format) {
  if (options.figureWidthPoints > 0) {
    if (options.figureWidthPoints < 36 || options.figureHeightPoints < 36 ||
        options.figureWidthPoints > 2880 || options.figureHeightPoints > 2880)
      throw std::runtime_error("figure size must be between 0.5 and 40 inches (1.27 and 101.6 cm)");
    if (options.textPoints < 4 || options.textPoints > 48)
      throw std::runtime_error("text size must be between 4 and 48 points");
  } else if (options.width < 16 || options.height < 16 || options.width > 20000 ||
             options.height > 20000) {
    throw std::runtime_error("plot size must be between 16 and 20000 pixels");
  }
  if (options.dpi < 24 || options.dpi > 2400)
    throw std::runtime_error("DPI must be between 24 and 2400");
  if (format != PlotFormat::Png) return;
  const double pixels = pngPixelCount(options);
  if (pixels > kMaxPngPixels)
    throw std::runtime_error("a PNG of " + std::to_string(static_cast<long long>(pixels / 1e6)) +
                             " megapixels is over the limit of 100 megapixels: lower the size or "
                             "DPI");
}

QByteArray renderPng(QCustomPlot* plot, const Geometry& g, const PlotExportOptions& options) {
  // At a paper size the image is exactly the figure's width at the resolution.
  const double scale = g.figure ? std::round(options.figureWidthPoints / 72 * options.dpi) / g.width
                                : options.dpi / 96.0;
  QImage image = plot->toPixmap(g.width, g.height, scale).toImage();
  if (image.isNull()) return {};
  const int dotsPerMeter = static_cast<int>(std::lround(options.dpi / 0.0254));
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  return image.save(&buffer, "PNG") ? bytes : QByteArray();
}

// One page of the figure's size in points, vectorised, pens not cosmetic (line widths stay widths
// when zoomed in).
QByteArray renderPdf(QCustomPlot* plot, const Geometry& g) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    writer.setCreator(QStringLiteral("RFScope"));
    writer.setTitle(QStringLiteral("RFScope plot"));
    writer.setResolution(kCanvasDpi);
    writer.setPageLayout(
        QPageLayout(QPageSize(g.pagePoints, QPageSize::Point, QString(), QPageSize::ExactMatch),
                    QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    QCPPainter painter;
    if (!painter.begin(&writer)) return {};
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic);
    plot->toPainter(&painter, g.width, g.height);
    if (!painter.end()) return {};
  }  // the writer finishes the document when it goes
  return bytes;
}

// Two corrections to Qt's SVG. Qt writes the font's family as Qt names it ("Sans Serif" for the
// default sans font), while SVG readers understand the CSS generic families: the generic one is
// named as the fallback (and replaces Qt's aliases). And the physical size is written exactly
// (Qt derives it from the canvas rounded to whole pixels).
QByteArray finishSvg(const QByteArray& raw, QSizeF pageSize) {
  QString svg = QString::fromUtf8(raw);
  static const QRegularExpression size(R"(<svg width="[^"]*" height="[^"]*")");
  svg.replace(size, QStringLiteral("<svg width=\"%1mm\" height=\"%2mm\"")
                        .arg(pageSize.width() / 72 * 25.4, 0, 'f', 3)
                        .arg(pageSize.height() / 72 * 25.4, 0, 'f', 3));
  static const QRegularExpression family(R"(font-family="([^"]*)\")");
  QString out;
  qsizetype last = 0;
  for (auto it = family.globalMatch(svg); it.hasNext();) {
    const auto match = it.next();
    const QString name = match.captured(1).trimmed();
    const QString lower = name.toLower();
    QString generic = "sans-serif";
    if (lower.contains("mono") || lower.contains("courier")) generic = "monospace";
    if (lower == "serif" || lower.contains("times")) generic = "serif";
    const bool alias = lower == "sans serif" || lower == "sans" || lower == "sans-serif" ||
                       lower == "serif" || lower == "monospace" || lower == "mono";
    out += svg.mid(last, match.capturedStart() - last);
    out += "font-family=\"" + (alias ? generic : name + ", " + generic) + "\"";
    last = match.capturedEnd();
  }
  out += svg.mid(last);
  return out.toUtf8();
}

QByteArray renderSvg(QCustomPlot* plot, const Geometry& g) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setResolution(kCanvasDpi);
    generator.setSize(QSize(g.width, g.height));
    generator.setViewBox(QRect(0, 0, g.width, g.height));
    generator.setTitle(QStringLiteral("RFScope plot"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return {};
    plot->toPainter(&painter, g.width, g.height);
    if (!painter.end()) return {};
  }
  return bytes.isEmpty() ? bytes : finishSvg(bytes, g.pagePoints);
}

}  // namespace

bool plotFormatFromPath(const QString& path, PlotFormat* format) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "png")
    *format = PlotFormat::Png;
  else if (suffix == "pdf")
    *format = PlotFormat::Pdf;
  else if (suffix == "svg")
    *format = PlotFormat::Svg;
  else
    return false;
  return true;
}

void exportPlot(QCustomPlot* plot, const QString& path, PlotFormat format,
                const PlotExportOptions& options) {
  checkOptions(options, format);
  const Geometry geometry = geometryOf(options);
  QByteArray bytes;
  switch (format) {
    case PlotFormat::Png:
      bytes = renderPng(plot, geometry, options);
      break;
    case PlotFormat::Pdf:
      bytes = renderPdf(plot, geometry);
      break;
    case PlotFormat::Svg:
      bytes = renderSvg(plot, geometry);
      break;
  }
  if (bytes.isEmpty())
    throw std::runtime_error(
        ("cannot write '" + path + "': the plot could not be rendered").toStdString());
  writeFileAtomically(QFile::encodeName(path).toStdString(),
                      std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

void exportPlot(PlotView& view, const QString& path, PlotFormat format,
                const PlotExportOptions& options) {
  checkOptions(options, format);
  const bool figure = options.figureWidthPoints > 0;
  if (figure) view.setTextPointSize(options.textPoints);
  try {
    exportPlot(view.plot(), path, format, options);
  } catch (...) {
    if (figure) view.setTextPointSize(std::nullopt);
    throw;
  }
  if (figure) view.setTextPointSize(std::nullopt);
}

}  // namespace rfscope::ui
