#pragma once
// Where a plot's legend goes: inside the axes where it covers no data (or where the user dragged
// it), otherwise beside the axes, or below them in columns when it is wide; and the wrapping of
// labels too long for the plot.
//
// Exports may ask for a place (inside, right, below) and a number of columns, and lay out figures
// at paper sizes, where outside the axes is below or beside them, whichever leaves them more room,
// and only while they keep at least half of the figure: else the legend goes inside, above the
// data, in a band freed for it by extending the value axes' ranges (restored afterwards).

#include <QPointF>
#include <QRectF>
#include <QString>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/io/plot_export_options.h"

class QCustomPlot;
class QFont;
class QCPAxis;
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

  // How an export wants the legend placed (default: Automatic, one column inside and beside, as
  // many as fit below). paper: a figure at paper size (see above).
  void setRequest(LegendPlacement placement, int columns, bool paper);
  LegendPlacement placement() const { return placement_; }

  // Places the legend: at the user's position, else at the emptiest spot of the data that
  // `markData` draws onto the occupancy of the full-size axis rect, else as the request says.
  // Returns true when it went outside (the axes lost its room: the caller lays them out again).
  bool place(const std::function<void(DataOccupancy&)>& markData);

  // No legend shown: the legend back inside the axes (hidden by the caller), the value axes' ranges
  // restored.
  void putAway();

  // Gives the value axes back the ranges they had before a band was freed above the data for the
  // legend (nothing when none was).
  void restoreRanges();

  // Moves the legend inside the axes with its top-left corner at a widget position; it stays there
  // until forgetUserPosition().
  void moveTo(const QPointF& topLeft);
  void forgetUserPosition() { userPosition_.reset(); }

  void putInside();
  bool inside() const { return side_ == nullptr; }
  QRectF rect() const;                           // widget pixels, after the last layout
  bool contains(const QPointF& position) const;  // a visible legend there

 private:
  enum class Side { Right, Below };
  void putOutside();  // on screen: beside the axes when narrow, below them when wide
  void putOutside(Side side);
  // Entries in `columns` columns, filled row by row.
  void arrange(int columns);
  // The most columns whose entries fit `width` pixels, evened out over the rows they take
  // (seven entries in four columns take two rows: in four columns, not three and a straggler).
  int columnsThatFit(double width) const;
  // Inside the full-size axis rect at `spot` (clamped to keep the legend whole).
  void setInsideAt(const QPointF& spot);
  // The legend inside, above the data: the value axes extended to free a band for it.
  bool placeAboveData(const std::function<void(DataOccupancy&)>& markData);
  // The axis rect's share of the whole figure with the legend on that side.
  double axesShareWith(Side side);
  // The legend's gap to the axes, inside: clear of the ticks, which point inwards.
  double margin() const;
  int tickLength() const;  // the longest inward tick of the visible axes

  QCustomPlot* plot_;
  QCPLayoutGrid* side_ = nullptr;  // holds the legend while it is outside the axes
  // A position the user dragged it to (fractions of the axis rect).
  std::optional<QPointF> userPosition_;
  LegendPlacement placement_ = LegendPlacement::Automatic;
  int columns_ = 0;
  bool paper_ = false;
  // The value axes' ranges before a band was freed above the data.
  std::vector<std::pair<QCPAxis*, std::pair<double, double>>> savedRanges_;
};

}  // namespace rfscope::ui
