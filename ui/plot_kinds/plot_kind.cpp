#include "ui/plot_kinds/plot_kind.h"

#include <qcustomplot.h>

#include <limits>

#include "core/math/log_math.h"
#include "ui/legend_placement.h"
#include "ui/plot_legend_layout.h"
#include "ui/series_colors.h"

namespace rfscope::ui {
QCPAbstractPlottable* PlotSeries::legendPlottable() const {
  return body ? body : line;
}

QString PlotSeries::legendText(bool paper) const {
  // The legend entry carries only the ⚠ mark; the warning itself is in the tooltip and the
  // window's warnings area, where it has room.
  return (paper && !shortLabel.isEmpty() ? shortLabel : label) +
         (warning.isEmpty() ? QString() : QStringLiteral(" ⚠"));
}

QList<QCPAbstractPlottable*> PlotSeries::plottables() const {
  QList<QCPAbstractPlottable*> all;
  for (QCPAbstractPlottable* plottable :
       std::initializer_list<QCPAbstractPlottable*>{line, low, high, errorBars, body})
    if (plottable) all.push_back(plottable);
  return all;
}

void PlotKindRenderer::remove(QCustomPlot*) {}

void PlotKindRenderer::fit(QCustomPlot* plot, const QList<PlotSeries>&) const {
  plot->rescaleAxes(true);
  // A 4% margin keeps markers and error bars at the edges inside the axes.
  addMargins(plot->xAxis);
  addMargins(plot->yAxis);
  if (plot->yAxis2->visible()) addMargins(plot->yAxis2);
}

void PlotKindRenderer::distinguish(QCustomPlot*, QList<PlotSeries>& series) const {
  for (auto& one : series) {
    one.coincidenceRank = one.coincidenceDepth = 0;
    one.hatched = false;
  }
}

void PlotKindRenderer::visibilityChanged(QList<PlotSeries>&) {}

void PlotKindRenderer::addItemsToOccupancy(DataOccupancy&) const {}

void PlotKindRenderer::fitToLayout(QCustomPlot* plot, const QList<PlotSeries>&) {
  if (plot->xAxis->tickLabelRotation() == 0) return;
  plot->xAxis->setTickLabelRotation(0);
  relayout(plot);
}

void PlotKindRenderer::addToOccupancy(DataOccupancy& occupancy, const PlotSeries& series,
                                      const QCPAxis* xAxis) const {
  const QCPAxis* valueAxis = series.valueAxis;
  QVector<QPointF> points;
  QVector<double> xs, lows, highs;
  for (int i = 0; i < series.x.size(); ++i) {
    const double px = toPixel(xAxis, series.x[i]);
    const double py = i < series.y.size() ? toPixel(valueAxis, series.y[i]) : kNaN;
    if (!std::isnan(px) && !std::isnan(py)) points.push_back(QPointF(px, py));
    if (series.lowValues.isEmpty() || (series.low && !series.low->visible())) continue;
    const double low = bandEdgePixel(valueAxis, series.lowValues[i]);
    const double high = bandEdgePixel(valueAxis, series.highValues[i]);
    if (series.errorBars) {
      if (!std::isnan(py)) occupancy.addVerticalSpan(px, low, high, 4);
    } else {
      xs.push_back(px);
      lows.push_back(low);
      highs.push_back(high);
    }
  }
  const double halfWidth = series.line->pen().widthF() / 2 + 2;
  if (series.line->lineStyle() != QCPGraph::lsNone) occupancy.addPolyline(points, halfWidth);
  if (series.line->scatterStyle().shape() != QCPScatterStyle::ssNone)
    for (const QPointF& p : points)
      occupancy.addMarker(p, series.line->scatterStyle().size() / 2 + 2);
  if (!xs.isEmpty()) occupancy.addBand(xs, lows, highs);
}

void slantCrowdedNames(QCustomPlot* plot, const QStringList& names) {
  QCPAxis* x = plot->xAxis;
  const double category = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
  const QFontMetrics metrics(x->tickLabelFont());
  int widest = 0;
  for (const QString& name : names)
    widest = std::max(widest, metrics.horizontalAdvance(name));
  const double rotation = widest + metrics.averageCharWidth() > category ? -35 : 0;
  if (rotation != x->tickLabelRotation()) {
    x->setTickLabelRotation(rotation);
    relayout(plot);
  }
}

QString PlotKindRenderer::describeX(const QString& xLabel, const PlotSeries& series,
                                    int index) const {
  return xLabel.toHtmlEscaped() + " = " + formatNumber(series.x[index]) + "<br>";
}

// ---- Helpers ----------------------------------------------------------------------------------

QVector<double> columnValues(const Table& table, const std::string& key) {
  const Column* column = key.empty() ? nullptr : table.column(key);
  return column ? QVector<double>(column->values.begin(), column->values.end()) : QVector<double>();
}

QString formatNumber(double value) {
  if (std::isnan(value)) return QStringLiteral("n/a");
  return QString::number(value, 'g', 8);
}

void addMargins(QCPAxis* axis, double factor) {
  const QCPRange range = axis->range();
  if (isLogAxis(axis) && range.lower > 0 && range.upper > 0)
    axis->scaleRange(factor, std::sqrt(range.lower * range.upper));
  else
    axis->scaleRange(factor);
}

bool isLogAxis(const QCPAxis* axis) {
  return axis->scaleType() == QCPAxis::stLogarithmic;
}

double toPixel(const QCPAxis* axis, double value) {
  if (!std::isfinite(value) || (isLogAxis(axis) && value <= 0)) return kNaN;
  return axis->coordToPixel(value);
}

double bandEdgePixel(const QCPAxis* axis, double value) {
  if (!std::isfinite(value)) return kNaN;
  if (!isLogAxis(axis) || value > 0) return axis->coordToPixel(value);
  const double lowerEnd = axis->coordToPixel(axis->range().lower);
  const double upperEnd = axis->coordToPixel(axis->range().upper);
  return lowerEnd + (lowerEnd > upperEnd ? 1e4 : -1e4);
}

QVector<QPointF> dataPixels(const PlotSeries& series, const QCPAxis* xAxis) {
  QVector<QPointF> pixels;
  for (int i = 0; i < series.x.size(); ++i) {
    const double px = toPixel(xAxis, series.x[i]);
    if (std::isnan(px)) continue;
    for (const QVector<double>* values : {&series.y, &series.lowValues, &series.highValues}) {
      if (i >= values->size()) continue;
      const double py = toPixel(series.valueAxis, (*values)[i]);
      if (!std::isnan(py)) pixels.push_back(QPointF(px, py));
    }
  }
  return pixels;
}

QColor colorIn(const Table& table, const std::string& colorKey) {
  std::vector<std::string> keysInPlot;
  for (const SeriesHint& hint : table.hints.series)
    keysInPlot.push_back(hint.colorKey);
  return seriesColor(colorKey, keysInPlot);
}

PlotSeries seriesOf(const SeriesHint& hint, const Table& table, QCustomPlot* plot,
                    bool secondaryAxis) {
  PlotSeries series;
  series.label = QString::fromStdString(hint.label);
  series.shortLabel = QString::fromStdString(hint.shortLabel);
  series.warning = QString::fromStdString(hint.warning);
  series.inLegend = hint.inLegend;
  series.style = hint.style;
  series.color = colorIn(table, hint.colorKey);
  series.valueAxis = secondaryAxis && hint.secondaryAxis ? plot->yAxis2 : plot->yAxis;
  series.x = columnValues(table, table.hints.xColumn);
  series.y = columnValues(table, hint.yColumn);
  if (hasInterval(hint, table)) {
    series.lowValues = columnValues(table, hint.lowColumn);
    series.highValues = columnValues(table, hint.highColumn);
  }
  return series;
}

bool hasInterval(const SeriesHint& hint, const Table& table) {
  return !hint.lowColumn.empty() && table.column(hint.lowColumn) && !hint.highColumn.empty() &&
         table.column(hint.highColumn);
}

void addLine(PlotSeries& series, QCustomPlot* plot, const QVector<double>& keys) {
  series.line = plot->addGraph(plot->xAxis, series.valueAxis);
  series.line->setName(series.legendText(false));
  if (!series.inLegend) series.line->removeFromLegend();
  setFiniteData(series.line, keys, series.y);
}

void addErrorBars(PlotSeries& series, QCustomPlot* plot) {
  series.errorBars = new QCPErrorBars(plot->xAxis, series.valueAxis);
  series.errorBars->removeFromLegend();
  series.errorBars->setDataPlottable(series.legendPlottable());
  QVector<double> below, above;  // one per point the line kept (see setFiniteData)
  for (int i = 0; i < std::min(series.x.size(), series.y.size()); ++i) {
    if (std::isnan(series.x[i]) || std::isnan(series.y[i])) continue;
    below.push_back(series.y[i] - series.lowValues[i]);
    above.push_back(series.highValues[i] - series.y[i]);
  }
  series.errorBars->setData(below, above);
}

}  // namespace rfscope::ui
