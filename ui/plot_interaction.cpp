#include "ui/plot_interaction.h"

#include <qcustomplot.h>

#include <QToolTip>

#include "ui/plot_legend_layout.h"

namespace rfscope::ui {
namespace {

constexpr double kHoverRadiusPixels = 24;
// A press that moves less than this is a click (QCustomPlot's own threshold).
constexpr int kClickSlopPixels = 3;

}  // namespace

QString describeNearestPoint(const QList<PlotSeries>& series, const PlotKindRenderer& kind,
                             const QCPAxis* xAxis, const QString& xLabel, const QPointF& position) {
  double best = kHoverRadiusPixels;
  const PlotSeries* bestSeries = nullptr;
  int bestIndex = -1;
  for (const auto& one : series) {
    if (!one.line->visible()) continue;
    for (int i = 0; i < one.x.size() && i < one.y.size(); ++i) {
      const double px = toPixel(xAxis, one.x[i]);
      const double py = toPixel(one.valueAxis, one.y[i]);
      if (std::isnan(px) || std::isnan(py)) continue;
      const double distance = std::hypot(px - position.x(), py - position.y());
      if (distance < best) {
        best = distance;
        bestSeries = &one;
        bestIndex = i;
      }
    }
  }
  if (!bestSeries) return {};
  QString text = "<b>" + bestSeries->label.toHtmlEscaped() + "</b><br>";
  text += kind.describeX(xLabel, *bestSeries, bestIndex);
  text += "y = " + formatNumber(bestSeries->y[bestIndex]);
  if (!bestSeries->lowValues.isEmpty())
    text += "<br>band: [" + formatNumber(bestSeries->lowValues[bestIndex]) + ", " +
            formatNumber(bestSeries->highValues[bestIndex]) + "]";
  if (!bestSeries->warning.isEmpty()) text += "<br>⚠ " + bestSeries->warning.toHtmlEscaped();
  return text;
}

PlotInteraction::PlotInteraction(QCustomPlot* plot, PlotLegendLayout& legend,
                                 std::function<QString(const QPointF&)> describe)
    : QObject(plot), plot_(plot), legend_(legend), describe_(std::move(describe)) {
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseWheel, this, &PlotInteraction::viewAdjusted);
  connect(plot_, &QCustomPlot::mousePress, this, &PlotInteraction::onMousePress);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotInteraction::onMouseMove);
  connect(plot_, &QCustomPlot::mouseRelease, this, &PlotInteraction::onMouseRelease);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, &PlotInteraction::resetRequested);
}

void PlotInteraction::setCrosshair(bool on) {
  if (on == (crosshairX_ != nullptr)) return;
  if (on) {
    crosshairX_ = new QCPItemStraightLine(plot_);
    crosshairY_ = new QCPItemStraightLine(plot_);
    for (auto* line : {crosshairX_, crosshairY_}) {
      line->setPen(QPen(QColor(80, 80, 80, 160), 1, Qt::DashLine));
      line->setVisible(false);
    }
  } else {
    plot_->removeItem(crosshairX_);
    plot_->removeItem(crosshairY_);
    crosshairX_ = crosshairY_ = nullptr;
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotInteraction::onMousePress(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !legend_.contains(event->position())) return;
  // Pressing on the legend drags the legend, not the view.
  legendDragOffset_ = event->position() - legend_.rect().topLeft();
  legendDragged_ = false;
  plot_->setInteraction(QCP::iRangeDrag, false);
  pressPosition_ = event->position();
}

void PlotInteraction::onMouseRelease(QMouseEvent*) {
  if (!legendDragOffset_) return;
  legendDragOffset_.reset();
  plot_->setInteraction(QCP::iRangeDrag, true);
}

void PlotInteraction::onMouseMove(QMouseEvent* event) {
  if (legendDragOffset_) {
    if (!legendDragged_ &&
        (event->position() - pressPosition_).manhattanLength() <= kClickSlopPixels)
      return;
    legendDragged_ = true;
    if (!legend_.inside()) {
      // Dragged out of its place beside the axes: into the axes, under the pointer.
      legend_.putInside();
      relayout(plot_);
    }
    legend_.moveTo(event->position() - *legendDragOffset_);
    return;
  }
  if (event->buttons() != Qt::NoButton) emit viewAdjusted();  // dragging pans the view
  if (crosshairX_) {
    const double x = plot_->xAxis->pixelToCoord(event->position().x());
    const double y = plot_->yAxis->pixelToCoord(event->position().y());
    // Two points inside the visible ranges define each line (valid on log axes too).
    const QCPRange xr = plot_->xAxis->range(), yr = plot_->yAxis->range();
    crosshairX_->point1->setCoords(x, yr.lower);
    crosshairX_->point2->setCoords(x, yr.upper);
    crosshairY_->point1->setCoords(xr.lower, y);
    crosshairY_->point2->setCoords(xr.upper, y);
    crosshairX_->setVisible(true);
    crosshairY_->setVisible(true);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  const QString text = describe_(event->position());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

}  // namespace rfscope::ui
