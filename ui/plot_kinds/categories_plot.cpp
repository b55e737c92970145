#include "ui/plot_kinds/categories_plot.h"

#include <qcustomplot.h>

#include <limits>

namespace rfscope::ui {

QList<PlotSeries> CategoriesPlot::build(const Table& table, QCustomPlot* plot, bool secondaryAxis) {
  QList<PlotSeries> series = CurvesPlot::build(table, plot, secondaryAxis);
  largeMarkers_ = true;
  x_ = series.isEmpty() || series.front().x.isEmpty() ? std::numeric_limits<double>::quiet_NaN()
                                                      : series.front().x[0];
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < series.size(); ++i) {
    PlotSeries& one = series[i];
    const double position = i + 1;
    ticker->addTick(position, one.label);
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
  plot->xAxis->setTicker(ticker);
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

}  // namespace rfscope::ui
