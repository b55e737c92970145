#pragma once
// PlotKind::Curves of a single row (e.g. one v): each series a category of its own, side by side,
// with its value written beside it, rather than points stacked on one vertical line. The x axis
// names the series; its label gives the one x value.

#include <QSharedPointer>
#include <QStringList>

#include "ui/plot_kinds/curves_plot.h"

class QCPAxisTickerText;
class QCPItemText;

namespace rfscope::ui {

class CategoriesPlot : public CurvesPlot {
 public:
  QList<PlotSeries> build(const Table& table, QCustomPlot* plot, bool secondaryAxis) override;
  void remove(QCustomPlot* plot) override;
  bool namesOnX() const override { return true; }
  QString xAxisLabel(const QString& hinted) const override;
  bool legendShown() const override { return false; }  // the names are on the axis
  void fit(QCustomPlot* plot, const QList<PlotSeries>& series) const override;
  void style(QList<PlotSeries>& series, const PlotStyle& style) const override;
  // Names slanted when crowded; at paper sizes the axes reach far enough for every value's text.
  void fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series) override;
  QString describeX(const QString&, const PlotSeries&, int) const override { return {}; }

 private:
  double x_ = 0;  // the table's one x value
  QList<QCPItemText*> valueLabels_;
  QStringList names_;       // the series' names along x
  QStringList shortNames_;  // at paper sizes
  QSharedPointer<QCPAxisTickerText> ticker_;
  mutable bool paper_ = false;
};

}  // namespace rfscope::ui
