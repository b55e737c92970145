#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "ui/plot_view.h"

namespace rfscope::ui {
namespace {

// Every format draws on a canvas of device-independent pixels (1/96 inch), the unit QCustomPlot
// lays text out in, so that boxes fit their text in every format.
constexpr double kPixelsPerPoint = 96.0 / 72.0;
constexpr int kCanvasDpi = 96;

QString temporaryPathBeside(const QString& path) {
  static std::atomic<int> counter{0};
  return path + QStringLiteral(".tmp-%1-%2").arg(QCoreApplication::applicationPid()).arg(counter++);
}

// Two corrections to Qt's SVG. Qt writes the font's family as Qt names it ("Sans Serif" for the
// default sans font), while SVG readers understand the CSS generic families: the generic one is
// named as the fallback (and replaces Qt's aliases). And the physical size is written exactly
// (Qt derives it from the canvas rounded to whole pixels).
bool finishSvg(const QString& path, QSizeF pageSize) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  QString svg = QString::fromUtf8(file.readAll());
  file.close();
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
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  const QByteArray bytes = out.toUtf8();
  return file.write(bytes) == bytes.size() && file.flush();
}

// pageSize: the page in points (the canvas's size at 96 dpi unless a figure size says otherwise).
bool renderPdf(QCustomPlot* plot, const QString& path, int width, int height, QSizeF pageSize) {
  QPdfWriter writer(path);
  writer.setCreator(QStringLiteral("RFScope"));
  writer.setTitle(QStringLiteral("RFScope plot"));
  writer.setResolution(kCanvasDpi);
  writer.setPageLayout(
      QPageLayout(QPageSize(pageSize, QPageSize::Point, QString(), QPageSize::ExactMatch),
                  QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
  QCPPainter painter;
  if (!painter.begin(&writer)) return false;
  painter.setMode(QCPPainter::pmVectorized);
  painter.setMode(QCPPainter::pmNonCosmetic);  // line widths stay widths when zoomed in
  plot->toPainter(&painter, width, height);
  return painter.end() && QFileInfo(path).size() > 0;
}

bool renderSvg(QCustomPlot* plot, const QString& path, int width, int height, QSizeF pageSize) {
  {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setResolution(kCanvasDpi);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setTitle(QStringLiteral("RFScope plot"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return false;
    plot->toPainter(&painter, width, height);
    if (!painter.end()) return false;
  }
  return QFileInfo(path).size() > 0 && finishSvg(path, pageSize);
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

void exportPlot(PlotView& view, const QString& path, PlotFormat format,
                const PlotExportOptions& options) {
  const bool figure = options.figureWidthPoints > 0;
  if (figure) {
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
  int width = options.width, height = options.height;
  QSizeF pagePoints(width / kPixelsPerPoint, height / kPixelsPerPoint);
  if (figure) {
    pagePoints = QSizeF(options.figureWidthPoints, options.figureHeightPoints);
    width = static_cast<int>(std::lround(options.figureWidthPoints * kPixelsPerPoint));
    height = static_cast<int>(std::lround(options.figureHeightPoints * kPixelsPerPoint));
    view.setTextPointSize(options.textPoints);
  }
  QCustomPlot* plot = view.plot();
  const QString temporary = temporaryPathBeside(path);
  bool ok = false;
  switch (format) {
    case PlotFormat::Png: {
      // At a paper size the image is exactly the figure's width at the resolution.
      const double scale = figure ? std::round(options.figureWidthPoints / 72 * options.dpi) / width
                                  : options.dpi / 96.0;
      ok = plot->savePng(temporary, width, height, scale, -1, options.dpi, QCP::ruDotsPerInch);
      break;
    }
    case PlotFormat::Pdf:
      ok = renderPdf(plot, temporary, width, height, pagePoints);
      break;
    case PlotFormat::Svg:
      ok = renderSvg(plot, temporary, width, height, pagePoints);
      break;
  }
  if (figure) view.setTextPointSize(std::nullopt);
  const QByteArray target = QFile::encodeName(path);
  if (!ok || std::rename(QFile::encodeName(temporary).constData(), target.constData()) != 0) {
    QFile::remove(temporary);
    const QString directory = QFileInfo(path).absolutePath();
    const QString reason = !QFileInfo(directory).isDir()        ? "the folder does not exist"
                           : !QFileInfo(directory).isWritable() ? "the folder is not writable"
                                                                : "the file could not be written";
    throw std::runtime_error(("cannot write '" + path + "': " + reason).toStdString());
  }
}

}  // namespace rfscope::ui
