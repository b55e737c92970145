#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "ui/plot_view.h"

namespace rfscope::ui {
namespace {

constexpr double kPixelsPerPoint = 96.0 / 72.0;

QString temporaryPathBeside(const QString& path) {
  static std::atomic<int> counter{0};
  return path + QStringLiteral(".tmp-%1-%2").arg(QCoreApplication::applicationPid()).arg(counter++);
}

// Qt writes the font's family as Qt names it ("Sans Serif" for the default sans font); SVG
// readers understand the CSS generic families, so the generic one is named as the fallback (and
// Qt's aliases are replaced by it).
bool useGenericFontFamilies(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  QString svg = QString::fromUtf8(file.readAll());
  file.close();
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

bool renderSvg(QCustomPlot* plot, const QString& path, int width, int height) {
  {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setResolution(72);  // one SVG unit = one point
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setTitle(QStringLiteral("RFScope plot"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return false;
    plot->toPainter(&painter, width, height);
    if (!painter.end()) return false;
  }
  return QFileInfo(path).size() > 0 && useGenericFontFamilies(path);
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
  // The canvas in the units each format draws in: points for PDF and SVG pages, device-independent
  // pixels for PNG.
  int width = options.width, height = options.height;
  if (figure) {
    const double unit = format == PlotFormat::Png ? kPixelsPerPoint : 1.0;
    width = static_cast<int>(std::lround(options.figureWidthPoints * unit));
    height = static_cast<int>(std::lround(options.figureHeightPoints * unit));
    view.setTextPointSize(options.textPoints);
  }
  QCustomPlot* plot = view.plot();
  const QString temporary = temporaryPathBeside(path);
  bool ok = false;
  switch (format) {
    case PlotFormat::Png:
      ok = plot->savePng(temporary, width, height, options.dpi / 96.0, -1, options.dpi,
                         QCP::ruDotsPerInch);
      break;
    case PlotFormat::Pdf:
      ok = plot->savePdf(temporary, width, height, QCP::epNoCosmetic, QStringLiteral("RFScope"),
                         QStringLiteral("RFScope plot"));
      break;
    case PlotFormat::Svg:
      ok = renderSvg(plot, temporary, width, height);
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
