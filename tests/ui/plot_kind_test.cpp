// A plot kind defined in this file alone is drawn by PlotView: a toy kind (stems from zero to each
// value) is registered before main(), as a plug-in would be, and a table of that kind is drawn,
// styled, hovered, hidden and given a legend that covers no data, without a line of PlotView
// knowing it. The built-in kinds are found through the same registry.

#include <qcustomplot.h>

#include <QImage>
#include <QtTest>
#include <memory>

#include "ui/plot_kinds/categories_plot.h"
#include "ui/plot_kinds/curves_plot.h"
#include "ui/plot_kinds/grouped_bars_plot.h"
#include "ui/plot_kinds/plot_kind_registry.h"
#include "ui/plot_view.h"
#include "ui/series_colors.h"

using rfscope::PlotKind;
using rfscope::SeriesHint;
using rfscope::Table;
using rfscope::ui::PlotSeries;
using rfscope::ui::PlotStyle;
using rfscope::ui::PlotView;

namespace {

// A kind of the test's own, past the built-in PlotKind values.
constexpr auto kStems = static_cast<PlotKind>(100);

// Each value a vertical stem from zero with a marker on top; the legend, hover, fitting and
// hiding come from PlotKindRenderer's defaults and PlotView.
class StemsPlot final : public rfscope::ui::PlotKindRenderer {
 public:
  QList<PlotSeries> build(const Table& table, QCustomPlot* plot, bool secondaryAxis) override {
    QList<PlotSeries> all;
    for (const SeriesHint& hint : table.hints.series) {
      PlotSeries series = rfscope::ui::seriesOf(hint, table, plot, secondaryAxis);
      rfscope::ui::addLine(series, plot, series.x);
      series.line->setLineStyle(QCPGraph::lsImpulse);
      all.push_back(series);
    }
    return all;
  }
  void style(QList<PlotSeries>& series, const PlotStyle& style) const override {
    for (PlotSeries& one : series) {
      QColor color = one.color;
      if (style.stale) color.setAlpha(90);
      one.line->setPen(QPen(color, style.lineWidth));
      one.line->setScatterStyle(
          QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, style.markerSize * 2));
    }
  }
  QString describeX(const QString& xLabel, const PlotSeries& series, int index) const override {
    return "stem at " + xLabel + " " + QString::number(series.x[index]) + "<br>";
  }
};

const bool registered = (rfscope::ui::registerPlotKind(
                             kStems, [](const Table&) { return std::make_unique<StemsPlot>(); }),
                         true);

Table tableOf(PlotKind kind, const std::vector<double>& x,
              const std::vector<std::vector<double>>& ys) {
  Table table;
  table.hints.title = "stems";
  table.hints.xColumn = "x";
  table.hints.xLabel = "n";
  table.hints.kind = kind;
  table.columns.push_back({"x", "x", x});
  const char* colorKeys[] = {"trig", "pos", "oprf"};
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const std::string key = "y" + std::to_string(i);
    table.columns.push_back({key, key, ys[i]});
    SeriesHint hint;
    hint.label = "series " + std::to_string(i);
    hint.yColumn = key;
    hint.colorKey = colorKeys[i % 3];
    table.hints.series.push_back(hint);
  }
  return table;
}

bool legendCoversNoData(const PlotView& view) {
  const QRectF legend = view.legendRect().adjusted(-2, -2, 2, 2);
  for (const QPointF& p : view.visibleDataPixels())
    if (legend.contains(p)) return false;
  return true;
}

// Pixels of a colour in the rendered plot.
int pixelsOf(const PlotView& view, const QColor& color) {
  const QImage image = view.plot()->toPixmap().toImage();
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      count += image.pixelColor(x, y).rgb() == color.rgb() ? 1 : 0;
  return count;
}

}  // namespace

class PlotKindTest : public QObject {
  Q_OBJECT

 private slots:
  void aKindRegisteredFromElsewhereIsDrawn() {
    QVERIFY(registered);
    const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8};
    PlotView view;
    view.setTable(tableOf(kStems, x, {{1, 4, 2, 5, 3, 6, 4, 7}, {2, 1, 3, 2, 4, 3, 5, 4}}));
    view.resize(800, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    QCOMPARE(view.seriesCount(), 2);
    QCOMPARE(view.seriesGraph(0)->lineStyle(), QCPGraph::lsImpulse);
    QCOMPARE(view.seriesGraph(1)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
    QCOMPARE(view.seriesBars(0), nullptr);
    // Drawn in the series' colours, with a legend entry each that covers no stem.
    const QColor trig = rfscope::ui::seriesColor("trig"), pos = rfscope::ui::seriesColor("pos");
    QCOMPARE(view.seriesGraph(0)->pen().color().rgb(), trig.rgb());
    QVERIFY(pixelsOf(view, trig) > 100);
    const int posPixels = pixelsOf(view, pos);
    QVERIFY(posPixels > 100);
    QVERIFY(view.plot()->legend->visible());
    QVERIFY(view.plot()->legend->itemWithPlottable(view.seriesGraph(1)));
    QVERIFY(legendCoversNoData(view));
    // The view fits the data and the hover text has the kind's x line.
    QVERIFY(view.plot()->xAxis->range().contains(1) && view.plot()->xAxis->range().contains(8));
    QVERIFY(view.plot()->yAxis->range().contains(7));
    const QPointF top(view.plot()->xAxis->coordToPixel(4), view.plot()->yAxis->coordToPixel(5));
    const QString tip = view.describePointNear(top);
    QVERIFY2(tip.contains("series 0") && tip.contains("stem at n 4") && tip.contains("y = 5"),
             qPrintable(tip));
    // Hiding a series hides its stems (its legend icon stays).
    view.setSeriesVisible("series 1", false);
    view.plot()->replot();
    QVERIFY(!view.seriesGraph(1)->visible());
    QVERIFY(pixelsOf(view, pos) < posPixels / 3);
    // The kind hears of a stale result through its style.
    view.setFreshness(rfscope::ui::PlotFreshness::Stale);
    QCOMPARE(view.seriesGraph(0)->pen().color().alpha(), 90);
    // Another kind afterwards: ordinary curves again.
    view.setTable(tableOf(PlotKind::Curves, x, {{1, 2, 3, 4, 5, 6, 7, 8}}));
    QCOMPARE(view.seriesGraph(0)->lineStyle(), QCPGraph::lsLine);
  }

  void theBuiltInKindsComeFromTheRegistry() {
    const std::vector<double> x{1, 2, 3};
    const auto curves = rfscope::ui::makePlotRenderer(tableOf(PlotKind::Curves, x, {{1, 2, 3}}));
    QVERIFY(dynamic_cast<rfscope::ui::CurvesPlot*>(curves.get()));
    QVERIFY(!dynamic_cast<rfscope::ui::CategoriesPlot*>(curves.get()));
    // One row of curves: categories side by side.
    const auto categories =
        rfscope::ui::makePlotRenderer(tableOf(PlotKind::Curves, {1}, {{1}, {2}}));
    QVERIFY(dynamic_cast<rfscope::ui::CategoriesPlot*>(categories.get()));
    const auto bars = rfscope::ui::makePlotRenderer(tableOf(PlotKind::GroupedBars, x, {{1, 2, 3}}));
    QVERIFY(dynamic_cast<rfscope::ui::GroupedBarsPlot*>(bars.get()));
    // Without series, or of a kind nobody registered: empty curves.
    QVERIFY(dynamic_cast<rfscope::ui::CurvesPlot*>(
        rfscope::ui::makePlotRenderer(tableOf(PlotKind::GroupedBars, x, {})).get()));
    QVERIFY(dynamic_cast<rfscope::ui::CurvesPlot*>(
        rfscope::ui::makePlotRenderer(tableOf(static_cast<PlotKind>(101), x, {{1, 2, 3}})).get()));
  }
};

QTEST_MAIN(PlotKindTest)
#include "plot_kind_test.moc"
