#pragma once
// The pointer over a plot: hover text for the nearest data point, an optional crosshair, dragging
// the legend (a press on the legend moves it, not the view), and the user's pan and zoom reported
// so that streamed updates keep them.

#include <QList>
#include <QObject>
#include <QPointF>
#include <functional>
#include <optional>

#include "ui/plot_kinds/plot_kind.h"

class QCustomPlot;
class QCPItemStraightLine;
class QMouseEvent;

namespace rfscope::ui {

class PlotLegendLayout;

// The hover text for the visible data point nearest to a widget position, empty if none is near.
QString describeNearestPoint(const QList<PlotSeries>& series, const PlotKindRenderer& kind,
                             const QCPAxis* xAxis, const QString& xLabel, const QPointF& position);

class PlotInteraction : public QObject {
  Q_OBJECT
 public:
  // describe: the hover text at a widget position (empty: nothing there).
  PlotInteraction(QCustomPlot* plot, PlotLegendLayout& legend,
                  std::function<QString(const QPointF&)> describe);

  void setCrosshair(bool on);

 signals:
  void viewAdjusted();    // the user panned or zoomed
  void resetRequested();  // double click

 private:
  void onMousePress(QMouseEvent* event);
  void onMouseMove(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);

  QCustomPlot* plot_;
  PlotLegendLayout& legend_;
  std::function<QString(const QPointF&)> describe_;
  QCPItemStraightLine* crosshairX_ = nullptr;
  QCPItemStraightLine* crosshairY_ = nullptr;
  // A legend drag under way: where the pointer holds the legend, and whether it moved yet.
  std::optional<QPointF> legendDragOffset_;
  QPointF pressPosition_;
  bool legendDragged_ = false;
};

}  // namespace rfscope::ui
