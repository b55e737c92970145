#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <cmath>
#include <stdexcept>

#include "core/data/input_limits.h"
#include "core/io/atomic_file.h"

namespace rfscope::ui {
namespace {

// Every format is rendered into memory and then written by writeFileAtomically: Qt's file writers
// (QSvgGenerator, QPrinter, QImage::save) do not report a full disk, and wrote over the old file.

QByteArray renderPng(QCustomPlot* plot, const PlotExportOptions& options) {
  const double scale = options.dpi / 96.0;
  QImage image = plot->toPixmap(options.width, options.height, scale).toImage();
  if (image.isNull()) return {};
  const int dotsPerMeter = static_cast<int>(std::lround(options.dpi / 0.0254));
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  return image.save(&buffer, "PNG") ? bytes : QByteArray();
}

// As QCustomPlot::savePdf renders: one page of width × height points, vectorised, pens not
// cosmetic.
QByteArray renderPdf(QCustomPlot* plot, const PlotExportOptions& options) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    writer.setCreator(QStringLiteral("RFScope"));
    writer.setTitle(QStringLiteral("RFScope plot"));
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(options.width, options.height),
                                               QPageSize::Point, QString(), QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    writer.setResolution(96);
    QCPPainter painter;
    if (!painter.begin(&writer)) return {};
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic);
    painter.setWindow(QRect(0, 0, options.width, options.height));
    plot->toPainter(&painter, options.width, options.height);
    if (!painter.end()) return {};
  }  // the writer finishes the document when it goes
  return bytes;
}

QByteArray renderSvg(QCustomPlot* plot, const PlotExportOptions& options) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(QSize(options.width, options.height));
  generator.setViewBox(QRect(0, 0, options.width, options.height));
  generator.setTitle(QStringLiteral("RFScope plot"));
  QCPPainter painter;
  if (!painter.begin(&generator)) return {};
  plot->toPainter(&painter, options.width, options.height);
  return painter.end() ? bytes : QByteArray();
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
  if (options.width < 16 || options.height < 16 || options.width > 20000 || options.height > 20000)
    throw std::runtime_error("plot size must be between 16 and 20000 pixels");
  if (options.dpi < 24 || options.dpi > 2400)
    throw std::runtime_error("DPI must be between 24 and 2400");
  const double scale = options.dpi / 96.0;
  if (format == PlotFormat::Png &&
      std::round(options.width * scale) * std::round(options.height * scale) > kMaxPngPixels)
    throw std::runtime_error("a PNG of " + std::to_string(options.width) + "×" +
                             std::to_string(options.height) + " at " + std::to_string(options.dpi) +
                             " dpi is over the limit of 100 megapixels: lower the size or DPI");
  QByteArray bytes;
  switch (format) {
    case PlotFormat::Png:
      bytes = renderPng(plot, options);
      break;
    case PlotFormat::Pdf:
      bytes = renderPdf(plot, options);
      break;
    case PlotFormat::Svg:
      bytes = renderSvg(plot, options);
      break;
  }
  if (bytes.isEmpty())
    throw std::runtime_error(
        ("cannot write '" + path + "': the plot could not be rendered").toStdString());
  writeFileAtomically(QFile::encodeName(path).toStdString(),
                      std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace rfscope::ui
