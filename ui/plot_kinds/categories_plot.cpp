#include "ui/plot_kinds/categories_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "ui/plot_legend_layout.h"

namespace rfscope::ui {

QList<PlotSeries> CategoriesPlot::build(const Table& table, QCustomPlot* plot, bool secondaryAxis) {
  QList<PlotSeries> series = CurvesPlot::build(table, plot, secondaryAxis);
  largeMarkers_ = true;
  x_ = series.isEmpty() || series.front().x.isEmpty() ? std::numeric_limits<double>::quiet_NaN()
                                                      : series.front().x[0];
  ticker_ = QSharedPointer<QCPAxisTickerText>::create();
  paper_ = false;  // the ticks carry the full names
  names_.clear();
  shortNames_.clear();
  for (int i = 0; i < series.size(); ++i) {
    PlotSeries& one = series[i];
    const double position = i + 1;
    ticker_->addTick(position, one.label);
    names_.push_back(one.label);
    shortNames_.push_back(one.shortLabel.isEmpty() ? one.label : one.shortLabel);
    one.x = {position};
    one.line->setData({position}, one.y.mid(0, 1), true);
    one.line->setLineStyle(QCPGraph::lsNone);
    one.style = SeriesStyle::Points;
    if (one.y.isEmpty() || !std::isfinite(one.y[0])) continue;
    auto* label = new QCPItemText(plot);
    label->position->setCoords(position, one.y[0]);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->setPadding(QMargins(10, 0, 0, 0));
    label->setText(QString::number(one.y[0], 'g', 4));
    label->setClipToAxisRect(true);
    valueLabels_.push_back(label);
  }
  plot->xAxis->setTicker(ticker_);
  return series;
}

void CategoriesPlot::remove(QCustomPlot* plot) {
  for (QCPItemText* label : valueLabels_)
    plot->removeItem(label);
  valueLabels_.clear();
}

QString CategoriesPlot::xAxisLabel(const QString& hinted) const {
  return hinted + " = " + formatNumber(x_);
}

void CategoriesPlot::fit(QCustomPlot* plot, const QList<PlotSeries>& series) const {
  plot->rescaleAxes(true);
  plot->xAxis->setRange(0.4, series.size() + 0.8);
  addMargins(plot->xAxis);
  addMargins(plot->yAxis);
  if (plot->yAxis2->visible()) addMargins(plot->yAxis2);
}

void CategoriesPlot::style(QList<PlotSeries>& series, const PlotStyle& style) const {
  CurvesPlot::style(series, style);
  if (style.paper != paper_ && ticker_) {
    // The short names at paper sizes.
    const QStringList& names = style.paper ? shortNames_ : names_;
    ticker_->clear();
    for (int i = 0; i < names.size(); ++i)
      ticker_->addTick(i + 1, names[i]);
  }
  paper_ = style.paper;
  const int gap = style.paper ? QFontMetrics(style.textFont).height() / 2 : 10;
  for (QCPItemText* label : valueLabels_) {
    label->setFont(style.textFont);
    label->setPadding(QMargins(gap, 0, 0, 0));
  }
}

void CategoriesPlot::fitToLayout(QCustomPlot* plot, const QList<PlotSeries>&) {
  slantCrowdedNames(plot, paper_ ? shortNames_ : names_);
  if (!paper_) return;  // on screen the user's zoom may cut them
  // Each value's text starts right of its point and is centred on its value: the x axis reaches
  // far enough right for the texts' ends, the value axis far enough up and down for their
  // halves (in the axis's own scale: log or linear), a few pixels to spare.
  QCPAxis* x = plot->xAxis;
  const QCPRange xRange = x->range();
  const double width = plot->axisRect()->width(), height = plot->axisRect()->height();
  double right = xRange.upper;
  std::map<QCPAxis*, QCPRange> valueRanges;
  for (const QCPItemText* label : valueLabels_) {
    const QFontMetrics metrics(label->font());
    const double room =
        width - label->padding().left() - metrics.horizontalAdvance(label->text()) - 4;
    const double at = label->position->key();
    if (room > 0 && at > xRange.lower)
      right = std::max(right, xRange.lower + (at - xRange.lower) * width / room);
    QCPAxis* axis = label->position->valueAxis();
    const bool log = axis->scaleType() == QCPAxis::stLogarithmic;
    const auto scaled = [log](double v) { return log ? std::log(v) : v; };
    const auto unscaled = [log](double t) { return log ? std::exp(t) : t; };
    const double value = label->position->value();
    if (height <= 0 || (log && value <= 0)) continue;
    const QCPRange current = valueRanges.try_emplace(axis, axis->range()).first->second;
    const double lo = scaled(current.lower), hi = scaled(current.upper), t = scaled(value);
    const double half = (metrics.height() / 2.0 + 2) / height;  // of the axis
    if (half >= 0.5) continue;
    QCPRange wanted = current;
    wanted.lower = std::min(current.lower, unscaled(hi - (hi - t) / (1 - half)));
    wanted.upper = std::max(current.upper, unscaled((t - lo * half) / (1 - half)));
    valueRanges[axis] = wanted;
  }
  bool changed = false;
  if (right > xRange.upper + 1e-9 * xRange.size()) {
    x->setRangeUpper(right);
    changed = true;
  }
  for (const auto& [axis, range] : valueRanges)
    if (range.lower < axis->range().lower || range.upper > axis->range().upper) {
      axis->setRange(range);
      changed = true;
    }
  if (changed) relayout(plot);
}

}  // namespace rfscope::ui
