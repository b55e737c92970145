// The plot keeps its data readable on its own: legend placement, axes that follow the grid, tick
// formats, coinciding series, overlapping bands, warnings out of the legend, the secondary axis,
// stale/partial marks, grouped bars, and exports at paper sizes.

#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/io/remaining_time.h"
#include "ui/axis_scales.h"
#include "ui/legend_placement.h"
#include "ui/plot_export.h"
#include "ui/plot_view.h"
#include "ui/series_colors.h"
#include "ui/series_distinction.h"

using rfscope::Column;
using rfscope::SeriesHint;
using rfscope::SeriesStyle;
using rfscope::Table;
using rfscope::ui::PlotView;

namespace {

// A table with one x column and the given series (each a column of y values).
Table tableOf(const std::vector<double>& x, const std::vector<std::vector<double>>& ys,
              const std::vector<std::string>& colorKeys = {}) {
  Table table;
  table.hints.title = "test";
  table.hints.xColumn = "x";
  table.columns.push_back({"x", "x", x});
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const std::string key = "y" + std::to_string(i);
    table.columns.push_back({key, key, ys[i]});
    SeriesHint hint;
    hint.label = "series " + std::to_string(i);
    hint.yColumn = key;
    hint.colorKey = i < colorKeys.size() ? colorKeys[i] : "trig";
    table.hints.series.push_back(hint);
  }
  return table;
}

std::vector<double> grid(double from, double to, int n) {
  std::vector<double> values;
  for (int i = 0; i < n; ++i)
    values.push_back(from + (to - from) * i / (n - 1));
  return values;
}

// Shows the view at a fixed size and lays it out (the legend is placed during the layout).
void showAt(PlotView& view, int width = 800, int height = 500) {
  view.resize(width, height);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.plot()->replot();
}

// No visible data point lies under the legend (a little margin around it included).
bool legendCoversNoData(const PlotView& view) {
  const QRectF legend = view.legendRect().adjusted(-2, -2, 2, 2);
  for (const QPointF& p : view.visibleDataPixels())
    if (legend.contains(p)) return false;
  return true;
}

}  // namespace

class PlotViewTest : public QObject {
  Q_OBJECT

 private slots:
  void legendGoesToAnEmptyCornerInsideTheAxes() {
    // Rising curves fill the top-right and bottom-left; the other corners are empty.
    const auto x = grid(0, 1, 60);
    std::vector<double> a, b;
    for (double v : x) {
      a.push_back(v * v);
      b.push_back(v * v * v);
    }
    PlotView view;
    view.setTable(tableOf(x, {a, b}, {"trig", "pos"}));
    showAt(view);
    QVERIFY(view.legendInsideAxes());
    QVERIFY(view.plot()->axisRect()->rect().contains(view.legendRect().toRect()));
    QVERIFY(legendCoversNoData(view));
    // Top-left: the data hug the bottom there, and readers look for a legend at the top.
    QVERIFY(view.legendRect().center().x() < view.plot()->axisRect()->rect().center().x());
    QVERIFY(view.legendRect().center().y() < view.plot()->axisRect()->rect().center().y());
  }

  void legendAvoidsBandsAndMovesOutsideWhenNoCornerIsFree() {
    // A band covering the whole axis rect leaves no free spot: the legend goes beside the axes.
    const auto x = grid(0, 1, 40);
    Table table = tableOf(x, {std::vector<double>(40, 0.5)});
    table.columns.push_back({"low", "low", std::vector<double>(40, 0.0)});
    table.columns.push_back({"high", "high", std::vector<double>(40, 1.0)});
    table.hints.series[0].lowColumn = "low";
    table.hints.series[0].highColumn = "high";
    PlotView view;
    view.setTable(table);
    showAt(view);
    QVERIFY(!view.legendInsideAxes());
    QVERIFY(!view.legendRect().intersects(view.plot()->axisRect()->rect()));
    QVERIFY(legendCoversNoData(view));
    // With room again (the band only over the left half), it comes back inside.
    for (std::size_t i = 20; i < 40; ++i)
      table.columns[2].values[i] = table.columns[3].values[i] = std::nan("");
    view.setTable(table);
    view.plot()->replot();
    QVERIFY(view.legendInsideAxes());
    QVERIFY(legendCoversNoData(view));
    QVERIFY(view.legendRect().left() > view.plot()->axisRect()->rect().center().x());
  }

  void everyLegendSpotIsCheckedAgainstTheData() {
    rfscope::ui::DataOccupancy occupancy(QRectF(0, 0, 400, 300));
    // Data over the upper two thirds: only the bottom strip is free.
    occupancy.addBand({0, 400}, {0, 0}, {200, 200});
    const auto spot = rfscope::ui::emptiestLegendSpot(occupancy, QSizeF(100, 60));
    QVERIFY(spot.has_value());
    QCOMPARE(occupancy.occupiedCells(QRectF(*spot, QSizeF(100, 60))), 0);
    QVERIFY(spot->x() > 200 && spot->y() > 200);  // bottom right, the first free corner
    // A line through the strip leaves no place.
    occupancy.addPolyline({QPointF(0, 260), QPointF(400, 250)}, 2);
    QVERIFY(!rfscope::ui::emptiestLegendSpot(occupancy, QSizeF(100, 60)).has_value());
    // Counting is per cell, and only inside the area.
    QCOMPARE(occupancy.occupiedCells(QRectF(500, 500, 10, 10)), 0);
    QVERIFY(occupancy.occupiedCells(QRectF(0, 0, 8, 8)) > 0);
  }

  void aDraggedLegendStaysWhereItWasPut() {
    const auto x = grid(0, 1, 30);
    std::vector<double> y;
    for (double v : x)
      y.push_back(v);
    PlotView view;
    view.setTable(tableOf(x, {y}));
    showAt(view);
    const QRect area = view.plot()->axisRect()->rect();
    const QPointF target(area.center().x(), area.top() + 30);
    view.moveLegendTo(target);
    view.plot()->replot();
    QVERIFY2((view.legendRect().topLeft() - target).manhattanLength() < 3,
             qPrintable(QString("%1,%2 vs %3,%4")
                            .arg(view.legendRect().left())
                            .arg(view.legendRect().top())
                            .arg(target.x())
                            .arg(target.y())));
    view.setTable(tableOf(x, {y}));  // a streamed update keeps the user's place
    view.plot()->replot();
    QVERIFY((view.legendRect().topLeft() - target).manhattanLength() < 3);
    // Dragging with the mouse moves it too, and does not pan the view.
    const QCPRange before = view.plot()->xAxis->range();
    const QPoint grab = view.legendRect().center().toPoint();
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, grab);
    QMouseEvent move(QEvent::MouseMove, QPointF(grab + QPoint(-120, 40)),
                     view.plot()->mapToGlobal(QPointF(grab + QPoint(-120, 40))), Qt::NoButton,
                     Qt::LeftButton, {});
    QApplication::sendEvent(view.plot(), &move);
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, grab + QPoint(-120, 40));
    view.plot()->replot();
    QVERIFY((view.legendRect().center() - QPointF(grab + QPoint(-120, 40))).manhattanLength() < 4);
    QCOMPARE(view.plot()->xAxis->range(), before);
    view.resetView();  // forgets the user's place: back to automatic
    view.plot()->replot();
    QVERIFY(legendCoversNoData(view));
  }

  void warningsStayOutOfTheLegend() {
    const auto x = grid(0, 1, 10);
    Table table = tableOf(x, {std::vector<double>(10, 1.0)});
    table.hints.series[0].warning =
        "heavy tails in 204 cells: the Monte Carlo variance underestimates";
    PlotView view;
    view.setTable(table);
    showAt(view);
    QCOMPARE(view.seriesGraph(0)->name(), QString("series 0 ⚠"));
    QCOMPARE(view.seriesName(0), QString("series 0"));
    const QPointF point(view.plot()->xAxis->coordToPixel(x[4]),
                        view.plot()->yAxis->coordToPixel(1.0));
    QVERIFY(view.describePointNear(point).contains("the Monte Carlo variance underestimates"));
  }

  void aLogSpacedGridGetsALogAxis() {
    QVERIFY(rfscope::ui::looksLogSpaced({0.001, 0.01, 0.1, 1}));
    QVERIFY(!rfscope::ui::looksLogSpaced({0.1, 0.2, 0.3, 0.4}));
    QVERIFY(!rfscope::ui::looksLogSpaced({-1, -10, -100}));
    QVERIFY(!rfscope::ui::looksLogSpaced({1, 10}));  // two points: no telling
    std::vector<double> x;
    for (int i = 0; i < 50; ++i)
      x.push_back(0.001 * std::pow(1000.0, i / 49.0));
    PlotView view;
    view.setTable(tableOf(x, {std::vector<double>(50, 1.0)}));
    QVERIFY(view.logX());
    QCOMPARE(view.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    view.setTable(tableOf(grid(0.001, 1, 50), {std::vector<double>(50, 1.0)}));
    QVERIFY(!view.logX());
    view.setLogX(true);  // the user's choice wins over the grid
    view.setTable(tableOf(grid(0.001, 1, 50), {std::vector<double>(50, 1.0)}));
    QVERIFY(view.logX());
  }

  void tickLabelsUseOneFormatPerAxis() {
    PlotView view;
    std::vector<double> trials;
    for (int i = 0; i < 30; ++i)
      trials.push_back(std::pow(10.0, 2 + 4.0 * i / 29));  // 100 … 10⁶
    view.setTable(tableOf(trials, {std::vector<double>(30, 1.0)}));
    showAt(view);
    QCPAxis* x = view.plot()->xAxis;
    QCOMPARE(x->numberFormat(), QString("eb"));  // 10² … 10⁶, never "1000" beside "10⁶"
    QCOMPARE(x->numberPrecision(), 0);
    QVERIFY(x->ticker().dynamicCast<QCPAxisTickerLog>());
    // A linear axis reaching 10⁶: every tick with an exponent.
    view.setTable(tableOf(grid(0, 2e6, 30), {std::vector<double>(30, 1.0)}));
    view.plot()->replot();
    QCOMPARE(x->numberFormat(), QString("eb"));
    // An ordinary range: plain numbers.
    view.setTable(tableOf(grid(0, 3, 30), {std::vector<double>(30, 1.0)}));
    view.plot()->replot();
    QCOMPARE(x->numberFormat(), QString("gb"));
  }

  void coincidingSeriesGetTheirOwnDashesAndMarkers() {
    const auto found = rfscope::ui::findCoincidences(
        {{1, 2, 3, 4}, {1, 2, 3, 4.001}, {4, 3, 2, 1}, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {true, true, true, true, false});
    QCOMPARE(found[0].rank, 0);
    QCOMPARE(found[1].rank, 1);
    QCOMPARE(found[2].rank, 0);  // crosses the others once: not hidden
    QCOMPARE(found[3].rank, 2);
    QCOMPARE(found[4].rank, 3);
    QCOMPARE(found[0].depth, 2);  // markers alone (series 4) leave the lines visible
    QCOMPARE(found[1].depth, 1);
    // Densities that differ at their peaks and share empty tails do not coincide.
    const auto densities = rfscope::ui::findCoincidences(
        {{0, 0.4, 0.2, 0, 0, 0, 0}, {0, 0.6, 0.1, 0, 0, 0, 0}}, {true, true});
    QCOMPARE(densities[1].rank, 0);

    const auto x = grid(0, 1, 40);
    std::vector<double> y, other;
    for (double v : x) {
      y.push_back(std::exp(v));
      other.push_back(3 - v);
    }
    PlotView view;
    view.setTable(tableOf(x, {y, y, other}, {"trig", "pos-hyp", "oprf"}));
    showAt(view);
    const QPen under = view.seriesGraph(0)->pen(), over = view.seriesGraph(1)->pen();
    QCOMPARE(under.style(), Qt::SolidLine);
    QVERIFY(over.style() != Qt::SolidLine);
    QVERIFY(under.widthF() > over.widthF());  // the covered one shows on both sides
    QVERIFY(view.seriesGraph(1)->scatterStyle().shape() != QCPScatterStyle::ssNone);
    QCOMPARE(view.seriesGraph(2)->pen().style(), Qt::SolidLine);
    // Hiding one of the pair leaves the other plain.
    view.setSeriesVisible("series 1", false);
    QCOMPARE(view.seriesGraph(0)->pen().widthF(), view.seriesGraph(2)->pen().widthF());
  }

  void overlappingBandsAreHatchedNotBlended() {
    QVERIFY(rfscope::ui::bandsOverlap({0, 0}, {2, 2}, {1, 5}, {3, 6}));
    QVERIFY(!rfscope::ui::bandsOverlap({0, 0}, {1, 1}, {2, 2}, {3, 3}));
    const auto x = grid(0, 1, 20);
    Table table =
        tableOf(x, {std::vector<double>(20, 1.0), std::vector<double>(20, 2.0)}, {"pos", "oprf"});
    table.columns.push_back({"l0", "", std::vector<double>(20, 0.0)});
    table.columns.push_back({"h0", "", std::vector<double>(20, 1.8)});
    table.columns.push_back({"l1", "", std::vector<double>(20, 1.5)});
    table.columns.push_back({"h1", "", std::vector<double>(20, 2.5)});
    table.hints.series[0].lowColumn = "l0";
    table.hints.series[0].highColumn = "h0";
    table.hints.series[1].lowColumn = "l1";
    table.hints.series[1].highColumn = "h1";
    PlotView view;
    view.setTable(table);
    showAt(view);
    QSet<Qt::BrushStyle> hatches;
    for (int g = 0; g < view.plot()->graphCount(); ++g) {
      const QBrush brush = view.plot()->graph(g)->brush();
      if (brush.style() == Qt::NoBrush || brush.style() == Qt::SolidPattern) {
        if (brush.style() == Qt::SolidPattern) QVERIFY(brush.color().alpha() <= 20);  // tint only
        continue;
      }
      hatches.insert(brush.style());
    }
    QCOMPARE(hatches.size(), 2);  // one pattern per band, different directions
  }

  void aSecondaryAxisWhenTheHintsAskForIt() {
    const auto x = grid(0, 1, 10);
    Table table = tableOf(x, {std::vector<double>(10, 100.0), std::vector<double>(10, 0.01)});
    table.hints.y2Label = "relative error";
    table.hints.y2Log = true;
    table.hints.series[1].secondaryAxis = true;
    PlotView view;
    view.setTable(table);
    showAt(view);
    QVERIFY(view.plot()->yAxis2->visible());
    QCOMPARE(view.seriesGraph(0)->valueAxis(), view.plot()->yAxis);
    QCOMPARE(view.seriesGraph(1)->valueAxis(), view.plot()->yAxis2);
    QCOMPARE(view.plot()->yAxis2->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view.plot()->yAxis2->range().contains(0.01));
    table.hints.y2Label.clear();  // without a label the hint is ignored: one axis
    view.setTable(table);
    QVERIFY(!view.plot()->yAxis2->visible());
  }

  // A histogram's reference values: a dashed vertical line with its label per marker, kept in
  // view when it lies outside the data, and gone with the next table.
  void xMarkersAreVerticalLinesWithTheirLabelInView() {
    Table table = tableOf(grid(0, 1, 10), {grid(1, 2, 10)});
    table.hints.xMarkers = {{0.5, "mean of K̂", ""}, {3.0, "ln K (exact)", "exact"}};
    PlotView view;
    view.setTable(table);
    showAt(view);
    QCustomPlot* plot = view.plot();
    QCOMPARE(plot->itemCount() - 1, 4);  // besides the freshness mark: two lines, two labels
    QVERIFY(plot->xAxis->range().contains(3.0));
    QVERIFY(plot->xAxis->range().contains(0.0));
    QStringList labels;
    for (int i = 0; i < plot->itemCount(); ++i) {
      if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) {
        QCOMPARE(line->pen().style(), Qt::DashLine);
        QCOMPARE(line->point1->coords().x(), line->point2->coords().x());
      }
      if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
        labels << text->text();
    }
    QVERIFY(labels.contains("mean of K̂"));
    QVERIFY(labels.contains("ln K (exact)"));
    // The legend keeps clear of the lines and their labels.
    const QRectF legend = view.legendRect();
    for (int i = 0; i < plot->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible()) {
        const QRectF label(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
        QVERIFY2(!legend.intersects(label), qPrintable(text->text()));
      }
    for (const double x : {0.5, 3.0}) {
      const double px = plot->xAxis->coordToPixel(x);
      QVERIFY(px < legend.left() || px > legend.right());
    }
    view.setTable(tableOf(grid(0, 1, 10), {grid(1, 2, 10)}));
    QCOMPARE(plot->itemCount(), 1);
  }

  // On a log axis the margins are shares of the decades shown: a line at the data's top (the
  // exact value 1 above estimates down to 1e-9) stays clear of the frame.
  void logAxisMarginsAreTakenInDecades() {
    Table table = tableOf(grid(1, 10, 10), {std::vector<double>(10, 1.0), grid(1e-9, 1e-3, 10)});
    table.hints.yLog = true;
    PlotView view;
    view.setTable(table);
    showAt(view);
    const QCPRange range = view.plot()->yAxis->range();
    const double decades = std::log10(range.upper / range.lower);
    QVERIFY2(std::log10(range.upper) > 0.015 * decades,
             qPrintable(QString("top %1 over %2 decades").arg(range.upper).arg(decades)));
    QVERIFY(std::log10(range.lower) < -9 - 0.015 * decades);
  }

  // Estimates (0.3 .. 4) on the left, relative errors (0 .. 0.45) on the right: both axes start
  // just below 0 by the same share, so that the zeros are one line.
  void twoLinearAxesOfNonNegativeDataShareTheirZero() {
    Table table = tableOf(grid(0, 3, 10), {grid(0.3, 4, 10), grid(0, 0.45, 10)});
    table.hints.y2Label = "relative error";
    table.hints.series[1].secondaryAxis = true;
    PlotView view;
    view.setTable(table);
    showAt(view);
    const double zero1 = view.plot()->yAxis->coordToPixel(0);
    const double zero2 = view.plot()->yAxis2->coordToPixel(0);
    QVERIFY2(std::abs(zero1 - zero2) < 1, qPrintable(QString("%1 vs %2").arg(zero1).arg(zero2)));
    QVERIFY(view.plot()->yAxis->range().contains(4));
    QVERIFY(view.plot()->yAxis2->range().contains(0.45));
  }

  // Bands off: the band graphs are hidden (lines stay), the view fits the lines alone, overlapping
  // bands are no longer hatched, and the legend may sit where only a band was.
  void bandsCanBeHiddenAndTheViewFitsTheLines() {
    const auto x = grid(0, 1, 20);
    Table table = tableOf(x, {grid(1, 2, 20), grid(1.1, 2.1, 20)});
    for (int i = 0; i < 2; ++i) {
      const std::string key = "y" + std::to_string(i);
      std::vector<double> low, high;
      for (const double v : table.columns[1 + i].values) {
        low.push_back(v - 5);
        high.push_back(v + 5);
      }
      table.columns.push_back({key + "-low", key + "-low", low});
      table.columns.push_back({key + "-high", key + "-high", high});
      table.hints.series[i].lowColumn = key + "-low";
      table.hints.series[i].highColumn = key + "-high";
    }
    PlotView view;
    view.setTable(table);
    showAt(view);
    QVERIFY(view.plot()->yAxis->range().lower < -3);
    view.setBandsShown(false);
    QCustomPlot* plot = view.plot();
    int shownGraphs = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
      shownGraphs += plot->graph(i)->visible() ? 1 : 0;
    QCOMPARE(shownGraphs, 2);  // the two lines
    QVERIFY(view.seriesGraph(0)->visible());
    QVERIFY2(view.plot()->yAxis->range().lower > 0.8,
             qPrintable(QString::number(view.plot()->yAxis->range().lower)));
    view.setBandsShown(true);
    QVERIFY(view.plot()->yAxis->range().lower < -3);
  }

  void aSingleXValueShowsTheSeriesSideBySide() {
    // One v, five couplings (SimRF Fig. 4): categories with their values, not a stacked column.
    Table table = tableOf({1.0}, {{2.03}, {1.965}, {1.744}, {1.718}, {1.716}});
    table.hints.xLabel = "v";
    table.columns.push_back({"low", "", {1.89}});
    table.columns.push_back({"high", "", {2.17}});
    table.hints.series[0].lowColumn = "low";
    table.hints.series[0].highColumn = "high";
    for (auto& hint : table.hints.series)
      hint.style = SeriesStyle::Points;
    PlotView view;
    view.setTable(table);
    showAt(view);
    auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 5);
    QCOMPARE(ticker->ticks().value(3.0), QString("series 2"));
    QCOMPARE(view.plot()->xAxis->label(), QString("v = 1"));
    QVERIFY(!view.plot()->legend->visible());  // the names are on the axis
    QStringList values;
    for (int i = 0; i < view.plot()->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)))
        if (text->visible()) values << text->text();
    QVERIFY(values.contains("1.744") && values.contains("1.716"));
    QVERIFY(view.plot()->xAxis->range().contains(1) && view.plot()->xAxis->range().contains(5));
    // Back to several rows: an ordinary axis again.
    view.setTable(tableOf(grid(0, 1, 5), {grid(0, 1, 5)}));
    QVERIFY(!view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>());
    QCOMPARE(view.plot()->itemCount(), 1);  // only the freshness mark
  }

  void barsOnALogAxisRiseFromTheDecadeBelowTheSmallestValue() {
    // Features needed per estimator (hundreds to thousands): the axis starts at 100, not at
    // whatever small value a zero base would drag it down to.
    Table table = tableOf({1, 2, 3}, {{2400, 1300, 0}, {1500, 1000, 740}});
    table.hints.kind = rfscope::PlotKind::GroupedBars;
    table.hints.yLog = true;
    PlotView view;
    view.setTable(table);
    showAt(view);
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(view.plot()->yAxis->range().lower, 100.0);
    QVERIFY(view.plot()->yAxis->range().upper >= 2400);
  }

  void barHintsDrawGroupedBarsWithErrorBarsPerCategory() {
    // A classification table: rows are datasets (coded 2, 7, and 0 for the average), the exact
    // kernel beside two estimators with ± one standard error.
    Table table = tableOf({2, 7, 0}, {{0.99, 0.9, 0.945}, {0.97, 0.85, 0.91}, {0.95, 0.8, 0.875}},
                          {"exact", "trig", "pos"});
    table.hints.xLabel = "dataset";
    table.hints.kind = rfscope::PlotKind::GroupedBars;
    table.hints.xValueNames = {{1, "abalone"}, {2, "banknote"}, {7, "wifi"}, {0, "average"}};
    for (int s = 1; s <= 2; ++s) {
      const std::string key = "y" + std::to_string(s);
      const std::vector<double> y = table.column(key)->values;
      std::vector<double> low, high;
      for (double v : y) {
        low.push_back(v - 0.01);
        high.push_back(v + 0.02);
      }
      table.columns.push_back({key + "-low", "", low});
      table.columns.push_back({key + "-high", "", high});
      table.hints.series[s].lowColumn = key + "-low";
      table.hints.series[s].highColumn = key + "-high";
      table.hints.series[s].style = SeriesStyle::Points;
    }
    PlotView view;
    view.setTable(table);
    showAt(view);
    QCustomPlot* plot = view.plot();
    // One bar plottable per series, all in one group, each with its three categories.
    QCOMPARE(view.seriesCount(), 3);
    for (int s = 0; s < 3; ++s) {
      QCPBars* bars = view.seriesBars(s);
      QVERIFY(bars);
      QCOMPARE(bars->barsGroup(), view.barsGroup());
      QCOMPARE(bars->dataCount(), 3);
      QCOMPARE(bars->data()->at(1)->key, 2.0);
      QCOMPARE(bars->brush().color().rgb(),
               rfscope::ui::seriesColor(table.hints.series[s].colorKey).rgb());
      QVERIFY(plot->legend->itemWithPlottable(bars));
      QVERIFY(!plot->legend->itemWithPlottable(view.seriesGraph(s)));
    }
    QCOMPARE(view.barsGroup()->size(), 3);
    // Side by side: the bars of one category do not overlap.
    const double exactX = view.seriesBars(0)->dataPixelPosition(0).x();
    const double trigX = view.seriesBars(1)->dataPixelPosition(0).x();
    const double barPixels =
        plot->xAxis->coordToPixel(view.seriesBars(0)->width()) - plot->xAxis->coordToPixel(0);
    QVERIFY2(trigX - exactX >= barPixels, qPrintable(QString::number(trigX - exactX)));
    // Error bars on the estimators' bars (not the exact kernel's), ± their own interval.
    QList<QCPErrorBars*> errorBars;
    for (int i = 0; i < plot->plottableCount(); ++i)
      if (auto* bars = qobject_cast<QCPErrorBars*>(plot->plottable(i))) errorBars << bars;
    QCOMPARE(errorBars.size(), 2);
    for (QCPErrorBars* bars : errorBars) {
      QVERIFY(qobject_cast<QCPBars*>(bars->dataPlottable()));
      QVERIFY(bars->dataPlottable() != view.seriesBars(0));
      QVERIFY(bars->whiskerWidth() < barPixels);  // whiskers narrower than their bar
      QCOMPARE(bars->dataCount(), 3);
      QVERIFY(std::abs(bars->data()->at(2).errorMinus - 0.01) < 1e-12);
      QVERIFY(std::abs(bars->data()->at(2).errorPlus - 0.02) < 1e-12);
    }
    // The categories are named on the x axis, in row order.
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 3);
    QCOMPARE(ticker->ticks().value(1.0), QString("banknote"));
    QCOMPARE(ticker->ticks().value(2.0), QString("wifi"));
    QCOMPARE(ticker->ticks().value(3.0), QString("average"));
    QVERIFY(plot->xAxis->range().contains(0.6) && plot->xAxis->range().contains(3.4));
    QCOMPARE(plot->yAxis->range().lower, 0.0);  // bars rise from zero
    // Hover names the category and finds the bar where it is drawn.
    const QPointF top = view.seriesBars(1)->dataPixelPosition(1);
    const QString tip = view.describePointNear(top);
    QVERIFY2(tip.contains("series 1") && tip.contains("wifi"), qPrintable(tip));
    // The legend covers no bar top and no error bar end.
    QVERIFY(legendCoversNoData(view));
    // Hiding a series hides its bars and error bars.
    const double widthOfThree = view.seriesBars(0)->width();
    view.setSeriesVisible("series 1", false);
    QVERIFY(!view.seriesBars(1)->visible());
    for (QCPErrorBars* bars : errorBars)
      if (bars->dataPlottable() == view.seriesBars(1)) QVERIFY(!bars->visible());
    // ... and gives its slot to the others: two wider bars, side by side around the category's
    // centre, and hover still finds them where they are drawn.
    QCOMPARE(view.barsGroup()->size(), 2);
    QVERIFY(view.seriesBars(0)->width() > 1.4 * widthOfThree);
    const double centre = plot->xAxis->coordToPixel(2.0);
    const double exactLeft = centre - view.seriesBars(0)->dataPixelPosition(1).x();
    const double posRight = view.seriesBars(2)->dataPixelPosition(1).x() - centre;
    QVERIFY2(std::abs(exactLeft - posRight) < 1.0 && exactLeft > 0,
             qPrintable(QString("%1 %2").arg(exactLeft).arg(posRight)));
    const QString posTip = view.describePointNear(view.seriesBars(2)->dataPixelPosition(1));
    QVERIFY2(posTip.contains("series 2") && posTip.contains("wifi"), qPrintable(posTip));
    view.setSeriesVisible("series 1", true);
    QCOMPARE(view.barsGroup()->size(), 3);
    QCOMPARE(view.barsGroup()->bars(1), view.seriesBars(1));  // back in its own place
    QVERIFY(std::abs(view.seriesBars(1)->dataPixelPosition(1).x() - centre) < 1.0);
    // Another table without the hint: no bars left, an ordinary axis again.
    view.setTable(tableOf(grid(0, 1, 5), {grid(0, 1, 5)}));
    QCOMPARE(view.seriesBars(0), nullptr);
    for (int i = 0; i < plot->plottableCount(); ++i)
      QVERIFY(!qobject_cast<QCPBars*>(plot->plottable(i)));
    QVERIFY(!plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>());
  }

  void categoryNamesWiderThanTheirBarsSlant() {
    Table table = tableOf({1, 2, 3}, {{0.5, 0.6, 0.7}, {0.4, 0.5, 0.6}});
    table.hints.kind = rfscope::PlotKind::GroupedBars;
    table.hints.xValueNames = {{1, "banknote authentication"}, {2, "indoor localisation"}};
    PlotView view;
    view.setTable(table);
    showAt(view, 480, 320);
    QVERIFY(view.plot()->xAxis->tickLabelRotation() != 0);
    showAt(view, 2400, 600);
    QCOMPARE(view.plot()->xAxis->tickLabelRotation(), 0.0);
    auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(3.0), QString("3"));  // an x value without a name
  }

  void staleAndPartialResultsAreMarked() {
    PlotView view;
    view.setTable(tableOf(grid(0, 1, 10), {std::vector<double>(10, 1.0)}));
    QVERIFY(view.freshnessText().isEmpty());
    view.setFreshness(rfscope::ui::PlotFreshness::Stale, "the settings are invalid");
    QVERIFY(view.freshnessText().startsWith("previous settings"));
    QCOMPARE(view.seriesGraph(0)->pen().color().alpha(), 90);  // faded
    view.setFreshness(rfscope::ui::PlotFreshness::Partial, "run cancelled at 40%");
    QVERIFY(view.freshnessText().contains("partial result"));
    QVERIFY(view.freshnessText().contains("cancelled at 40%"));
    view.setFreshness(rfscope::ui::PlotFreshness::Current);
    QVERIFY(view.freshnessText().isEmpty());
    QCOMPARE(view.seriesGraph(0)->pen().color().alpha(), 255);
  }

  void remainingTimeIsExtrapolatedOnceItMeansSomething() {
    rfscope::RemainingTime remaining;
    remaining.update(0.01, 5);
    QCOMPARE(remaining.describe(), std::string("1%"));  // under 2%: no estimate yet
    remaining.update(0.5, 10);
    QVERIFY(remaining.secondsLeft().has_value());
    QVERIFY(std::abs(*remaining.secondsLeft() - 10) < 1e-9);
    QCOMPARE(remaining.describe(), std::string("50% · about 10 s left"));
    remaining.update(1.0, 20);
    QCOMPARE(remaining.describe(), std::string("100%"));
    remaining.restart();
    QCOMPARE(remaining.describe(), std::string("0%"));
    QCOMPARE(rfscope::formatDuration(200), std::string("3 min 20 s"));
    QCOMPARE(rfscope::formatDuration(3900), std::string("1 h 05 min"));
  }

  void exportsAtPaperSizeHaveThatSizeAndTextInPoints() {
    QTemporaryDir dir;
    PlotView view;
    view.setTable(tableOf(grid(0, 1, 20), {grid(0, 1, 20)}));
    showAt(view);
    rfscope::PlotExportOptions options;
    options.figureWidthPoints = rfscope::kOneColumnFigurePoints;  // 8.5 cm
    options.figureHeightPoints = 6 / 2.54 * 72;
    options.textPoints = 8;
    options.dpi = 300;
    const QString png = dir.filePath("f.png"), svg = dir.filePath("f.svg"),
                  pdf = dir.filePath("f.pdf");
    rfscope::ui::exportPlot(view, png, rfscope::ui::figureWriter("png"), options);
    rfscope::ui::exportPlot(view, svg, rfscope::ui::figureWriter("svg"), options);
    rfscope::ui::exportPlot(view, pdf, rfscope::ui::figureWriter("pdf"), options);
    const QImage image(png);
    QCOMPARE(image.width(), static_cast<int>(std::lround(8.5 / 2.54 * 300)));  // 1004 px
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QString svgText = QString::fromUtf8(svgFile.readAll());
    QVERIFY2(svgText.contains(QRegularExpression("width=\"8[45]\\.\\d+mm\"")),
             qPrintable(svgText.left(300)));
    QVERIFY(svgText.contains("font-family=\"sans-serif\""));
    QVERIFY(!svgText.contains("font-family=\"Sans Serif\""));
    // 8 pt at the SVG's 96 units per inch.
    QVERIFY(svgText.contains(QRegularExpression("font-size=\"10\\.6|font-size=\"11\"")));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    const QByteArray pdfBytes = pdfFile.readAll();
    QVERIFY(pdfBytes.contains("/MediaBox [0 0 241"));  // 8.5 cm = 241 pt
    // The view is back to its screen look afterwards.
    QCOMPARE(view.plot()->xAxis->tickLabelFont().pointSizeF(), view.font().pointSizeF());
  }
};

QTEST_MAIN(PlotViewTest)
#include "plot_view_test.moc"
