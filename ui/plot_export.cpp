#include "ui/plot_export.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSvgGenerator>
#include <atomic>
#include <cstdio>
#include <stdexcept>

namespace rfscope::ui {
namespace {

QString temporaryPathBeside(const QString& path) {
  static std::atomic<int> counter{0};
  return path + QStringLiteral(".tmp-%1-%2").arg(QCoreApplication::applicationPid()).arg(counter++);
}

bool renderSvg(QCustomPlot* plot, const QString& path, const PlotExportOptions& options) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(QSize(options.width, options.height));
  generator.setViewBox(QRect(0, 0, options.width, options.height));
  generator.setTitle(QStringLiteral("RFScope plot"));
  QCPPainter painter;
  if (!painter.begin(&generator)) return false;
  plot->toPainter(&painter, options.width, options.height);
  return painter.end() && QFileInfo(path).size() > 0;
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
  const QString temporary = temporaryPathBeside(path);
  bool ok = false;
  switch (format) {
    case PlotFormat::Png:
      ok = plot->savePng(temporary, options.width, options.height, options.dpi / 96.0, -1,
                         options.dpi, QCP::ruDotsPerInch);
      break;
    case PlotFormat::Pdf:
      ok = plot->savePdf(temporary, options.width, options.height, QCP::epNoCosmetic,
                         QStringLiteral("RFScope"), QStringLiteral("RFScope plot"));
      break;
    case PlotFormat::Svg:
      ok = renderSvg(plot, temporary, options);
      break;
  }
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
