#include <qcustomplot.h>

#include <QBuffer>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <cassert>
#include <cmath>

#include "ui/figure_writer.h"

namespace rfscope::ui {
namespace {

// Every format draws on a canvas of device-independent pixels (1/96 inch), the unit QCustomPlot
// lays text out in, so that boxes fit their text in every format.
constexpr int kCanvasDpi = 96;

// The registered format of a writer defined here.
const OutputFormat& registeredFormat(std::string_view id) {
  const OutputFormat* format = findOutputFormat(id);
  assert(format && format->kind == OutputKind::Figure);
  return *format;
}

class PngWriter final : public FigureWriter {
 public:
  const OutputFormat& format() const override { return registeredFormat("png"); }
  QByteArray render(QCustomPlot* plot, const FigureGeometry& g,
                    const PlotExportOptions& options) const override {
    // At a paper size the image is exactly the figure's width at the resolution.
    const double scale = g.figure
                             ? std::round(options.figureWidthPoints / 72 * options.dpi) / g.width
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
};

// One page of the figure's size in points, vectorised, pens not cosmetic (line widths stay widths
// when zoomed in).
class PdfWriter final : public FigureWriter {
 public:
  const OutputFormat& format() const override { return registeredFormat("pdf"); }
  QByteArray render(QCustomPlot* plot, const FigureGeometry& g,
                    const PlotExportOptions&) const override {
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
};

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

class SvgWriter final : public FigureWriter {
 public:
  const OutputFormat& format() const override { return registeredFormat("svg"); }
  QByteArray render(QCustomPlot* plot, const FigureGeometry& g,
                    const PlotExportOptions&) const override {
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
};

std::vector<const FigureWriter*>& registry() {
  static const PngWriter png;
  static const PdfWriter pdf;
  static const SvgWriter svg;
  // A new figure format: its writer here, its entry in core/io/output_format.cpp.
  static std::vector<const FigureWriter*> writers{&png, &pdf, &svg};
  return writers;
}

}  // namespace

const std::vector<const FigureWriter*>& allFigureWriters() {
  return registry();
}

const FigureWriter* findFigureWriter(std::string_view id) {
  for (const FigureWriter* writer : allFigureWriters())
    if (writer->format().id == id) return writer;
  return nullptr;
}

const FigureWriter& figureWriter(std::string_view id) {
  const FigureWriter* writer = findFigureWriter(id);
  assert(writer);
  return *writer;
}

const FigureWriter* figureWriterForPath(const QString& path) {
  const OutputFormat* format =
      outputFormatForPath(QFile::encodeName(path).toStdString(), OutputKind::Figure);
  return format ? findFigureWriter(format->id) : nullptr;
}

void registerFigureWriter(const FigureWriter& writer) {
  assert(findFigureWriter(writer.format().id) == nullptr);
  registry().push_back(&writer);
}

QString fileDialogFilter(OutputKind kind) {
  QStringList filters;
  for (const OutputFormat* format : outputFormats(kind))
    filters << QString::fromStdString(format->label + " (*." + format->extension + ")");
  return filters.join(";;");
}

QString extensionList(OutputKind kind) {
  const auto formats = outputFormats(kind);
  QString out;
  for (std::size_t i = 0; i < formats.size(); ++i)
    out += QString(i == 0                    ? ""
                   : i + 1 == formats.size() ? " or "
                                             : ", ") +
           "." + QString::fromStdString(formats[i]->extension);
  return out;
}

const OutputFormat& formatOfFilter(OutputKind kind, const QString& filter) {
  const auto formats = outputFormats(kind);
  for (const OutputFormat* format : formats)
    if (filter.endsWith(QString::fromStdString("(*." + format->extension + ")"))) return *format;
  return *formats.front();
}

}  // namespace rfscope::ui
