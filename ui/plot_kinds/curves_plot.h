#pragma once
// PlotKind::Curves: one line per series over x, a filled band where the series names low/high
// columns (error bars instead for series drawn as points), series on a secondary y axis where the
// hints ask for one. Series lying on top of each other get their own dashes and markers;
// overlapping bands are hatched. The hints' x markers are dashed vertical lines with their label
// at the top.
//
// A table of one row is drawn by CategoriesPlot (categories_plot.h) instead.

#include <memory>

#include "ui/plot_kinds/plot_kind.h"

class QCPItemStraightLine;
class QCPItemText;

namespace rfscope::ui {

class CurvesPlot : public PlotKindRenderer {
 public:
  QList<PlotSeries> build(const Table& table, QCustomPlot* plot, bool secondaryAxis) override;
  void style(QList<PlotSeries>& series, const PlotStyle& style) const override;
  void distinguish(QCustomPlot* plot, QList<PlotSeries>& series) const override;
  void remove(QCustomPlot* plot) override;
  void fit(QCustomPlot* plot, const QList<PlotSeries>& series) const override;
  void addItemsToOccupancy(DataOccupancy& occupancy) const override;
  void fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series) override;

 protected:
  // Markers large and filled (few points, one per category).
  bool largeMarkers_ = false;

 private:
  struct DrawnMarker {
    double x = 0;
    QColor color;
    QCPItemStraightLine* line = nullptr;
    QCPItemText* text = nullptr;
  };
  void addMarkers(const Table& table, QCustomPlot* plot);
  static void alignZeros(QCustomPlot* plot, const QList<PlotSeries>& series);
  QList<DrawnMarker> markers_;
};

// The curves of a table, or its categories when it has a single row.
std::unique_ptr<PlotKindRenderer> makeCurvesPlot(const Table& table);

}  // namespace rfscope::ui
