#pragma once
// Pinned runs drawn over the plot for comparison: each series of each pinned table as a thin,
// faded, dashed line (markers for point series; no bands or error bars, which would bury the live
// result), on a layer under the current table's series, its legend entry named with the pin's
// suffix ("PosRF (d = 16)") in grey. PlotView owns one and rebuilds it with every table.

#include <QList>
#include <QString>
#include <memory>

#include "core/experiments/table.h"
#include "ui/plot_kinds/plot_kind.h"

class QCustomPlot;

namespace rfscope::ui {

// What the plot draws of one pinned run.
struct PinnedCurves {
  std::shared_ptr<const Table> table;
  QString suffix;  // the legend entries' parenthesis: "d = 16"
};

class PinnedOverlay {
 public:
  // Adds the pins' series to the plot (secondary-axis series on yAxis2 when `secondaryAxis`).
  void build(QCustomPlot* plot, const QList<PinnedCurves>& pins, bool secondaryAxis);
  // Removes every plottable build added.
  void remove(QCustomPlot* plot);
  // Dimmed, thinner and dashed versions of the current table's line widths and markers.
  void style(const PlotStyle& style);
  // The pinned series as drawn (for hover texts, the legend's placement and tests).
  const QList<PlotSeries>& series() const { return series_; }

 private:
  QList<PlotSeries> series_;
};

}  // namespace rfscope::ui
