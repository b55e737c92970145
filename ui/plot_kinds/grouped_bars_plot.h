#pragma once
// PlotKind::GroupedBars: each row of the table a category along x (in row order, named by the
// hints' xValueNames or its x value), each series one bar per category, side by side in a group,
// with error bars where the series has low/high columns. A hidden series leaves the group; names
// wider than their category slant.

#include <QStringList>
#include <memory>

#include "ui/plot_kinds/plot_kind.h"

class QCPBarsGroup;

namespace rfscope::ui {

class GroupedBarsPlot : public PlotKindRenderer {
 public:
  QList<PlotSeries> build(const Table& table, QCustomPlot* plot, bool secondaryAxis) override;
  void remove(QCustomPlot* plot) override;
  void style(QList<PlotSeries>& series, const PlotStyle& style) const override;
  bool namesOnX() const override { return true; }
  double legendIconWidth() const override { return 1.6; }  // a bar's swatch is a small box
  void fit(QCustomPlot* plot, const QList<PlotSeries>& series) const override;
  void visibilityChanged(QList<PlotSeries>& series) override;
  void fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series) override;
  void addToOccupancy(DataOccupancy& occupancy, const PlotSeries& series,
                      const QCPAxis* xAxis) const override;
  QString describeX(const QString& xLabel, const PlotSeries& series, int index) const override;

 private:
  QCPBarsGroup* group_ = nullptr;
  QStringList categoryNames_;  // the rows' names on the x axis
};

std::unique_ptr<PlotKindRenderer> makeGroupedBarsPlot(const Table& table);

}  // namespace rfscope::ui
