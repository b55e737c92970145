#include "ui/plot_kinds/grouped_bars_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <limits>

#include "ui/legend_placement.h"
#include "ui/plot_legend_layout.h"

namespace rfscope::ui {
namespace {

QCPBars* barsOf(const PlotSeries& series) {
  return qobject_cast<QCPBars*>(series.body);
}

}  // namespace

QList<PlotSeries> GroupedBarsPlot::build(const Table& table, QCustomPlot* plot,
                                         bool secondaryAxis) {
  group_ = new QCPBarsGroup(plot);
  plot->xAxis->grid()->setVisible(false);
  const QVector<double> x = columnValues(table, table.hints.xColumn);
  // Bars stand at 1, 2, … (one category per row), named by the x values.
  QVector<double> keys = x;
  for (int row = 0; row < keys.size(); ++row)
    keys[row] = row + 1;
  QList<PlotSeries> all;
  for (const SeriesHint& hint : table.hints.series) {
    PlotSeries series = seriesOf(hint, table, plot, secondaryAxis);
    series.x = keys;
    addLine(series, plot, keys);
    series.line->setLineStyle(QCPGraph::lsNone);
    // The bars carry the legend entry; the graph only keeps the points (hover, tests).
    auto* bars = new QCPBars(plot->xAxis, series.valueAxis);
    bars->setName(series.line->name());
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setBarsGroup(group_);
    setFiniteData(bars, keys, series.y);
    series.line->removeFromLegend();
    series.body = bars;
    if (hasInterval(hint, table)) addErrorBars(series, plot);
    all.push_back(series);
  }
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  categoryNames_.clear();
  for (int row = 0; row < x.size(); ++row) {
    QString name = formatNumber(x[row]);
    for (const auto& [value, text] : table.hints.xValueNames)
      if (value == x[row]) name = QString::fromStdString(text);
    categoryNames_.push_back(name);
    ticker->addTick(row + 1, name);
  }
  plot->xAxis->setTicker(ticker);
  visibilityChanged(all);
  return all;
}

void GroupedBarsPlot::remove(QCustomPlot*) {
  delete group_;
  group_ = nullptr;
}

void GroupedBarsPlot::visibilityChanged(QList<PlotSeries>& series) {
  // The visible series share the category: a group fills 80% of it, and each bar keeps 12% of its
  // slot as the gap to the next. A hidden series leaves the group, so no empty slot remains.
  if (!group_) return;  // removed
  int count = 0;
  for (const PlotSeries& one : series)
    count += one.body->visible() ? 1 : 0;
  const double slot = 0.8 / std::max(count, 1), width = 0.88 * slot;
  group_->clear();
  group_->setSpacingType(QCPBarsGroup::stPlotCoords);
  group_->setSpacing(slot - width);
  int index = 0;
  for (PlotSeries& one : series) {
    QCPBars* bars = barsOf(one);
    bars->setWidth(width);
    if (!bars->visible()) continue;
    group_->append(bars);
    // The bar's centre, where QCPBarsGroup draws it (for hover and legend placement).
    const double offset = (index++ - (count - 1) / 2.0) * slot;
    for (int row = 0; row < one.x.size(); ++row)
      one.x[row] = row + 1 + offset;
  }
}

void GroupedBarsPlot::style(QList<PlotSeries>& series, const PlotStyle& style) const {
  const double width = style.lineWidth;
  for (PlotSeries& one : series) {
    QColor color = one.color;
    if (style.stale) color.setAlpha(90);  // a previous result: faded behind the mark
    // Filled in the series' colour, outlined darker; error bars dark, visible on any fill.
    QCPBars* bars = barsOf(one);
    bars->setBrush(color);
    bars->setPen(QPen(color.darker(150), std::max(0.8, width * 0.4)));
    one.line->setPen(Qt::NoPen);
    one.line->setScatterStyle(QCPScatterStyle());
    if (one.errorBars)
      one.errorBars->setPen(
          QPen(QColor(30, 30, 30, style.stale ? 90 : 255), std::max(1.0, width * 0.6)));
  }
}

void GroupedBarsPlot::fit(QCustomPlot* plot, const QList<PlotSeries>& series) const {
  plot->rescaleAxes(true);
  const double lowest = plot->yAxis->range().lower;
  addMargins(plot->xAxis);
  addMargins(plot->yAxis);
  plot->xAxis->setRange(0.5, categoryNames_.size() + 0.5);
  // Bars rise from zero: no margin below it. On a log axis they rise from the decade below the
  // smallest value shown (or its error bar), not from wherever the axis range happened to end.
  if (!isLogAxis(plot->yAxis) && lowest >= 0) plot->yAxis->setRangeLower(0);
  if (isLogAxis(plot->yAxis)) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const PlotSeries& one : series) {
      if (!one.line->visible()) continue;
      for (const QVector<double>* values : {&one.y, &one.lowValues})
        for (const double v : *values)
          if (v > 0 && std::isfinite(v)) smallest = std::min(smallest, v);
    }
    if (std::isfinite(smallest))
      plot->yAxis->setRangeLower(std::pow(10.0, std::floor(std::log10(smallest / 1.5))));
  }
  if (plot->yAxis2->visible()) addMargins(plot->yAxis2);
}

void GroupedBarsPlot::fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series) {
  // Category names wider than their category are slanted rather than run into each other, and
  // whiskers stay narrower than the bars.
  slantCrowdedNames(plot, categoryNames_);
  QCPAxis* x = plot->xAxis;
  for (const PlotSeries& one : series) {
    if (!one.errorBars) continue;
    const double bar = std::abs(x->coordToPixel(barsOf(one)->width()) - x->coordToPixel(0));
    one.errorBars->setWhiskerWidth(std::clamp(0.5 * bar, 2.0, 9.0));
  }
}

void GroupedBarsPlot::addToOccupancy(DataOccupancy& occupancy, const PlotSeries& series,
                                     const QCPAxis* xAxis) const {
  // Each bar from zero to its value, and its error bar.
  const QCPAxis* valueAxis = series.valueAxis;
  const double halfWidth =
      std::abs(xAxis->coordToPixel(barsOf(series)->width()) - xAxis->coordToPixel(0)) / 2;
  const double base = bandEdgePixel(valueAxis, 0);
  for (int i = 0; i < series.x.size() && i < series.y.size(); ++i) {
    const double px = toPixel(xAxis, series.x[i]);
    const double py = toPixel(valueAxis, series.y[i]);
    if (std::isnan(px) || std::isnan(py)) continue;
    occupancy.addVerticalSpan(px, base, py, halfWidth);
    if (!series.lowValues.isEmpty())
      occupancy.addVerticalSpan(px, bandEdgePixel(valueAxis, series.lowValues[i]),
                                bandEdgePixel(valueAxis, series.highValues[i]), 5);
  }
}

QString GroupedBarsPlot::describeX(const QString& xLabel, const PlotSeries&, int index) const {
  return xLabel.toHtmlEscaped() + ": " + categoryNames_.value(index).toHtmlEscaped() + "<br>";
}

std::unique_ptr<PlotKindRenderer> makeGroupedBarsPlot(const Table&) {
  return std::make_unique<GroupedBarsPlot>();
}

}  // namespace rfscope::ui
