// Figures that go into a paper as they are (issue 30, item 1): every preset, exported as a
// one-column PDF with 8-pt text (`rfscope-cli run --preset ID --figure-width one-column
// --font-size 8 --pdf F`), keeps all its text inside the page, its legend off the data, and its
// axes at least half of the figure.
//
// The figure is built as the PDF export builds it — a PlotView of the preset's table, exported
// through exportPlot with the PDF writer's painter — but drawn onto a paint device that records
// where every text goes instead of writing PDF. The layout is measured while it is drawn: the
// page, the axis rect, the legend, each text's box.

#include <qcustomplot.h>

#include <QPaintDevice>
#include <QPaintEngine>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/plot_export_options.h"
#include "ui/plot_export.h"
#include "ui/plot_view.h"

using rfscope::PlotExportOptions;
using rfscope::Preset;
using rfscope::ui::PlotView;

namespace {

struct DrawnText {
  QRectF box;  // device pixels (1/96 inch), the painter's transform applied
  QString text;
  std::optional<QRectF> clip;  // the painter's clip (device pixels), if it clips
  bool slanted = false;        // turned by an angle other than a multiple of 90°: box is a bound
};

// Records the box of every text drawn; draws nothing else.
class TextRecordingEngine final : public QPaintEngine {
 public:
  TextRecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
  bool begin(QPaintDevice*) override { return true; }
  bool end() override { return true; }
  void updateState(const QPaintEngineState& state) override {
    if (state.state() & QPaintEngine::DirtyTransform) transform_ = state.transform();
  }
  void drawTextItem(const QPointF& p, const QTextItem& item) override {
    const QRectF box(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent());
    std::optional<QRectF> clip;
    if (painter()->hasClipping()) clip = transform_.mapRect(painter()->clipBoundingRect());
    const bool slanted = std::abs(transform_.m12()) > 1e-9 && std::abs(transform_.m11()) > 1e-9;
    texts.push_back({transform_.mapRect(box), item.text(), clip, slanted});
  }
  void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
  void drawPath(const QPainterPath&) override {}
  void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
  void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
  void drawLines(const QLineF*, int) override {}
  void drawLines(const QLine*, int) override {}
  void drawRects(const QRectF*, int) override {}
  void drawRects(const QRect*, int) override {}
  void drawEllipse(const QRectF&) override {}
  void drawPoints(const QPointF*, int) override {}
  void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
  void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
  Type type() const override { return QPaintEngine::User; }

  std::vector<DrawnText> texts;

 private:
  QTransform transform_;
};

// A page of the canvas's size at 96 dpi, as the PDF writer sets its resolution.
class TextRecordingDevice final : public QPaintDevice {
 public:
  TextRecordingDevice(int width, int height) : width_(width), height_(height) {}
  QPaintEngine* paintEngine() const override { return &engine_; }
  std::vector<DrawnText>& texts() { return engine_.texts; }

 protected:
  int metric(PaintDeviceMetric metric) const override {
    switch (metric) {
      case PdmWidth:
        return width_;
      case PdmHeight:
        return height_;
      case PdmWidthMM:
        return qRound(width_ * 25.4 / 96);
      case PdmHeightMM:
        return qRound(height_ * 25.4 / 96);
      case PdmNumColors:
        return INT_MAX;
      case PdmDepth:
        return 32;
      case PdmDpiX:
      case PdmDpiY:
      case PdmPhysicalDpiX:
      case PdmPhysicalDpiY:
        return 96;
      case PdmDevicePixelRatio:
        return 1;
      case PdmDevicePixelRatioScaled:
        return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
      default:
        return 0;
    }
  }

 private:
  int width_, height_;
  mutable TextRecordingEngine engine_;
};

// What one export laid out and drew.
struct MeasuredFigure {
  QRectF page;
  QRectF axes;
  bool legendVisible = false;
  QRectF legend;
  std::vector<DrawnText> texts;
  QVector<QPointF> data;  // pixels of every visible data point
  int dataCellsUnderLegend = 0;
};

// The PDF writer's render, onto the recording device: the figure's layout, measured as drawn.
class MeasuringWriter final : public rfscope::ui::FigureWriter {
 public:
  explicit MeasuringWriter(const PlotView& view) : view_(view) {}
  const rfscope::OutputFormat& format() const override { return *rfscope::findOutputFormat("pdf"); }
  QByteArray render(QCustomPlot* plot, const rfscope::ui::FigureGeometry& g,
                    const PlotExportOptions&) const override {
    TextRecordingDevice device(g.width, g.height);
    {
      QCPPainter painter;
      if (!painter.begin(&device)) return {};
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNoCaching);
      painter.setMode(QCPPainter::pmNonCosmetic);
      plot->toPainter(&painter, g.width, g.height);
      // The layout of the export, before the view goes back to its screen size.
      layout.page = QRectF(0, 0, g.width, g.height);
      layout.axes = plot->axisRect()->rect();
      layout.legendVisible = plot->legend->visible();
      layout.legend = plot->legend->outerRect();
      layout.data = view_.visibleDataPixels();
      layout.dataCellsUnderLegend = view_.dataCellsUnderLegend();
      painter.end();
    }
    layout.texts = device.texts();
    return "measured";
  }

  mutable MeasuredFigure layout;

 private:
  const PlotView& view_;
};

// Quick stand-ins for the presets whose tables take over a second to compute: fewer repeats or
// trials, the same series, labels, grid and data sets (so the same legend and axes).
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& cheaperRuns() {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> runs{
      {"crt-table1", {{"repeats", "1"}}},
      {"simrf-table2", {{"repeats", "1"}}},
      {"simrf-fig8", {{"repeats", "4"}}},
      {"crt-table1-sigma", {{"repeats", "1"}}},
      {"rff-regression-abalone", {{"repeats", "2"}}},
      {"hrf-fig2-r1", {{"trials", "1000"}}},
      {"hrf-fig2-r1.5", {{"trials", "1000"}}},
      {"simrf-fig7", {{"repetitions", "5"}}},
      {"favor-plus-vs-plus-plus", {{"redraws", "2"}}},
      {"favor-features-needed", {{"redraws", "2"}}},
  };
  return runs;
}

rfscope::Table presetTable(const Preset& preset) {
  const rfscope::Experiment* experiment = rfscope::findExperiment(preset.experimentId);
  std::vector<rfscope::ParameterError> errors;
  rfscope::ParameterSet parameters = rfscope::presetParameters(preset, *experiment, errors);
  const auto specs = experiment->parameters();
  if (const auto cheaper = cheaperRuns().find(preset.id); cheaper != cheaperRuns().end())
    for (const auto& [key, text] : cheaper->second)
      for (const auto& spec : specs)
        if (spec.key == key) parameters.set(key, rfscope::parseParameterValue(spec, text));
  rfscope::SilentRunContext context;
  return experiment->run(parameters, context).table;
}

double area(const QRectF& r) {
  return r.width() * r.height();
}

// What is wrong with a figure's layout: text off the page, cut off or over other text; a legend off
// the page or over data; axes under half of the figure.
QStringList layoutProblems(const MeasuredFigure& figure) {
  QStringList problems;
  const double share = area(figure.axes) / area(figure.page);
  if (share < 0.5)
    problems << QString("axes %1×%2 px, %3% of the figure")
                    .arg(figure.axes.width())
                    .arg(figure.axes.height())
                    .arg(100 * share, 0, 'f', 0);
  // A pixel of tolerance (1/96 inch): a descent that reaches a pixel below its box is no cut.
  const QRectF page = figure.page.adjusted(-1, -1, 1, 1);
  for (const DrawnText& text : figure.texts)
    if (!page.contains(text.box))
      problems << QString("'%1' at (%2, %3, %4 × %5) leaves the page")
                      .arg(text.text)
                      .arg(text.box.x(), 0, 'f', 1)
                      .arg(text.box.y(), 0, 'f', 1)
                      .arg(text.box.width(), 0, 'f', 1)
                      .arg(text.box.height(), 0, 'f', 1);
    else if (text.clip && !text.clip->adjusted(-1, -1, 1, 1).contains(text.box))
      problems << QString("'%1' is cut off by the box it is drawn in").arg(text.text);
  // No text over another (slanted ones have only bounding boxes: left out).
  for (std::size_t i = 0; i < figure.texts.size(); ++i)
    for (std::size_t j = i + 1; j < figure.texts.size(); ++j) {
      const DrawnText &a = figure.texts[i], &b = figure.texts[j];
      if (a.slanted || b.slanted) continue;
      const QRectF both = a.box.intersected(b.box);
      if (both.width() > 1 && both.height() > 1)
        problems << QString("'%1' and '%2' overlap").arg(a.text, b.text);
    }
  if (figure.legendVisible) {
    if (!page.contains(figure.legend)) problems << "the legend leaves the page";
    int covered = 0;
    for (const QPointF& p : figure.data)
      covered += figure.legend.contains(p);
    if (covered > 0) problems << QString("the legend covers %1 data points").arg(covered);
    if (figure.dataCellsUnderLegend > 0)
      problems
          << QString("the legend covers drawn data (%1 cells)").arg(figure.dataCellsUnderLegend);
  }
  return problems;
}

}  // namespace

class FigureLayoutTest : public QObject {
  Q_OBJECT

  // The preset's figure exported with the options, measured: as rfscope-cli builds it (a view
  // made for the export), or as the app's File > Export does (from the view in the window, laid
  // out on screen first).
  static MeasuredFigure measure(const Preset& preset, const rfscope::Table& table,
                                const PlotExportOptions& options, bool onScreenFirst = false) {
    PlotView view;
    view.resize(options.width, options.height);
    view.setTable(table);
    rfscope::ui::PlotViewState state;
    state.xLog = preset.xLog;
    state.yLog = preset.yLog;
    view.setViewState(state);
    if (onScreenFirst) {
      view.resize(1000, 640);
      view.show();
      if (!QTest::qWaitForWindowExposed(&view)) qWarning("the window was not shown");
      view.plot()->replot();
    }
    const MeasuringWriter writer(view);
    QTemporaryDir dir;
    const auto result = rfscope::ui::exportPlot(
        view, dir.filePath(QString::fromStdString(preset.id) + ".pdf"), writer, options);
    if (!result) qWarning("%s: %s", preset.id.c_str(), result.problem.c_str());
    return writer.layout;
  }

 private slots:
  void everyPresetFitsAOneColumnPage() {
    PlotExportOptions options;
    options.figureWidthPoints = rfscope::kOneColumnFigurePoints;
    options.figureHeightPoints = rfscope::kOneColumnFigurePoints * 0.65;
    options.textPoints = 8;
    QStringList failures;
    double smallest = 1;
    for (const Preset& preset : rfscope::allPresets()) {
      QElapsedTimer timer;
      timer.start();
      const rfscope::Table table = presetTable(preset);
      const qint64 computing = timer.elapsed();
      const QString id = QString::fromStdString(preset.id);
      for (const bool onScreenFirst : {false, true}) {
        const MeasuredFigure figure = measure(preset, table, options, onScreenFirst);
        const double share = area(figure.axes) / area(figure.page);
        smallest = std::min(smallest, share);
        const QStringList problems = layoutProblems(figure);
        if (!onScreenFirst)
          qInfo("%-34s axes %5.1f%% of the figure, legend %-7s (table in %lld ms)", qPrintable(id),
                100 * share,
                !figure.legendVisible                          ? "none"
                : figure.axes.contains(figure.legend.center()) ? "inside"
                                                               : "outside",
                static_cast<long long>(computing));
        if (!problems.isEmpty()) {
          const QString which = id + (onScreenFirst ? " (from the window)" : "");
          qWarning("%s: %s", qPrintable(which), qPrintable(problems.join("; ")));
          failures << which;
        }
      }
    }
    qInfo("smallest axes share: %.1f%%", 100 * smallest);
    QVERIFY2(failures.isEmpty(), qPrintable("badly laid out: " + failures.join(", ")));
  }

  // The title and legend go where the options say, at paper and screen sizes alike.
  void theTitleAndLegendFollowTheOptions() {
    const Preset& preset = *rfscope::findPreset("crt-fig2-normal");
    const rfscope::Table table = presetTable(preset);
    const QString title = QString::fromStdString(table.hints.title);
    // A text drawn whole or as its first line.
    const auto drawn = [](const MeasuredFigure& figure, const QString& text) {
      return std::any_of(figure.texts.begin(), figure.texts.end(), [&](const DrawnText& t) {
        return t.text == text || (t.text.size() > 10 && text.startsWith(t.text));
      });
    };
    PlotExportOptions paper;
    paper.figureWidthPoints = rfscope::kOneColumnFigurePoints;
    paper.figureHeightPoints = rfscope::kOneColumnFigurePoints * 0.65;
    MeasuredFigure figure = measure(preset, table, paper);
    QVERIFY(!drawn(figure, title));
    QVERIFY(drawn(figure, "log Var"));
    QVERIFY(!drawn(figure, QString::fromStdString(table.hints.yLabel)));
    paper.title = true;
    QVERIFY(drawn(measure(preset, table, paper), title));

    paper.legend = rfscope::LegendPlacement::Right;
    figure = measure(preset, table, paper);
    QVERIFY(figure.legendVisible);
    QVERIFY(figure.legend.left() >= figure.axes.right());
    QVERIFY(figure.page.contains(figure.legend));
    paper.legend = rfscope::LegendPlacement::Below;
    paper.legendColumns = 3;
    figure = measure(preset, table, paper);
    QVERIFY(figure.legend.top() >= figure.axes.bottom());
    // Three entries in three columns: one row, three across.
    QCOMPARE(figure.legend.height() < figure.legend.width() / 3, true);
    paper.legend = rfscope::LegendPlacement::Inside;
    paper.legendColumns = 0;
    figure = measure(preset, table, paper);
    QVERIFY(figure.axes.contains(figure.legend));
    paper.legend = rfscope::LegendPlacement::None;
    QVERIFY(!measure(preset, table, paper).legendVisible);

    // At a screen size the title stays unless dropped, and the axes keep their full labels.
    PlotExportOptions screen{900, 600, 96};
    figure = measure(preset, table, screen);
    QVERIFY(drawn(figure, title));
    QVERIFY(drawn(figure, QString::fromStdString(table.hints.yLabel)));
    screen.title = false;
    screen.legend = rfscope::LegendPlacement::Below;
    figure = measure(preset, table, screen);
    QVERIFY(!drawn(figure, title));
    QVERIFY(figure.legend.top() >= figure.axes.bottom());
  }

  // An export leaves the view as it was: its ranges (which a figure may widen for its legend),
  // labels, title and legend.
  void theViewIsBackToItsScreenLookAfterAnExport() {
    const Preset& preset = *rfscope::findPreset("crt-table1");
    rfscope::Table table = presetTable(preset);
    PlotView view;
    view.resize(900, 600);
    view.setTable(table);
    view.plot()->replot();
    const QCPRange y = view.plot()->yAxis->range();
    const QString label = view.plot()->yAxis->label();
    const int elements = view.plot()->plotLayout()->elementCount();
    PlotExportOptions paper;
    paper.figureWidthPoints = rfscope::kOneColumnFigurePoints;
    paper.figureHeightPoints = rfscope::kOneColumnFigurePoints * 0.65;
    const MeasuringWriter writer(view);
    QTemporaryDir dir;
    QVERIFY(rfscope::ui::exportPlot(view, dir.filePath("t.pdf"), writer, paper));
    QVERIFY(writer.layout.axes.contains(writer.layout.legend));  // above the bars, axes widened
    view.plot()->replot();
    QCOMPARE(view.plot()->yAxis->range().lower, y.lower);
    QCOMPARE(view.plot()->yAxis->range().upper, y.upper);
    QCOMPARE(view.plot()->yAxis->label(), label);
    QCOMPARE(view.plot()->plotLayout()->elementCount(), elements);
    QCOMPARE(view.figureLayout().paper, false);
  }
};

QTEST_MAIN(FigureLayoutTest)
#include "figure_layout_test.moc"
