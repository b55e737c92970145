#pragma once
// Where a plot's legend goes: inside the axes where it covers no data (or where the user dragged
// it), otherwise beside the axes, or below them in columns when it is wide; and the wrapping of
// labels too long for the plot.

#include <QPointF>
#include <QRectF>
#include <QString>
#include <functional>
#include <optional>

class QCustomPlot;
class QFont;
class QCPLayoutGrid;

namespace rfscope::ui {

class DataOccupancy;

// Text broken between words into lines no wider than `available` pixels (long titles and axis
// labels).
QString wrapText(const QString& text, const QFont& font, int available);

// Lays the plot out again (after a change of its elements' sizes), without drawing it.
void relayout(QCustomPlot* plot);

class PlotLegendLayout {
 public:
  explicit PlotLegendLayout(QCustomPlot* plot);

  // Places the legend: at the user's position, else at the emptiest spot of the data that
  // `markData` draws onto the occupancy of the full-size axis rect, else outside the axes.
  // Returns true when it went outside (the axes lost its room: the caller lays them out again).
  bool place(const std::function<void(DataOccupancy&)>& markData);

  // Moves the legend inside the axes with its top-left corner at a widget position; it stays there
  // until forgetUserPosition().
  void moveTo(const QPointF& topLeft);
  void forgetUserPosition() { userPosition_.reset(); }

  void putInside();
  void putOutside();
  bool inside() const { return side_ == nullptr; }
  QRectF rect() const;                           // widget pixels, after the last layout
  bool contains(const QPointF& position) const;  // a visible legend there

 private:
  QCustomPlot* plot_;
  QCPLayoutGrid* side_ = nullptr;  // holds the legend while it is outside the axes
  // A position the user dragged it to (fractions of the axis rect).
  std::optional<QPointF> userPosition_;
};

}  // namespace rfscope::ui
