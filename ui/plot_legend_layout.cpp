#include "ui/plot_legend_layout.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "ui/legend_placement.h"

namespace rfscope::ui {
namespace {

// The row of the plot layout that holds the axis rect (below the title, when there is one).
int axisRowOf(QCustomPlot* plot) {
  QCPLayoutGrid* layout = plot->plotLayout();
  for (int row = 0; row < layout->rowCount(); ++row)
    for (int column = 0; column < layout->columnCount(); ++column)
      if (layout->element(row, column) == plot->axisRect()) return row;
  return 0;
}

// The part of the data above the band freed for the legend: the range of an axis extended so that
// its old upper end lies `fraction` of the axis below its new one.
QCPRange extendedUpward(QCPAxis::ScaleType scale, const QCPRange& range, double fraction) {
  const double grow = 1 / (1 - fraction);
  if (scale == QCPAxis::stLogarithmic && range.lower > 0 && range.upper > 0)
    return QCPRange(range.lower, range.lower * std::pow(range.upper / range.lower, grow));
  return QCPRange(range.lower, range.lower + (range.upper - range.lower) * grow);
}

}  // namespace

QString wrapText(const QString& text, const QFont& font, int available) {
  const QFontMetrics metrics(font);
  QString result, line;
  for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
    const QString longer = line.isEmpty() ? word : line + ' ' + word;
    if (!line.isEmpty() && metrics.horizontalAdvance(longer) > available) {
      result += (result.isEmpty() ? "" : "\n") + line;
      line = word;
    } else {
      line = longer;
    }
  }
  return result + (result.isEmpty() ? "" : "\n") + line;
}

void relayout(QCustomPlot* plot) {
  QCPLayoutGrid* layout = plot->plotLayout();
  layout->update(QCPLayoutElement::upPreparation);
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
}

PlotLegendLayout::PlotLegendLayout(QCustomPlot* plot) : plot_(plot) {
  // Legend positions are computed against the whole axis rect (place keeps the margin).
  plot_->axisRect()->insetLayout()->setMargins(QMargins());
}

void PlotLegendLayout::setRequest(LegendPlacement placement, int columns, bool paper) {
  placement_ = placement;
  columns_ = std::clamp(columns, 0, kMaxLegendColumns);
  paper_ = paper;
  restoreRanges();
}

void PlotLegendLayout::restoreRanges() {
  for (const auto& [axis, range] : savedRanges_)
    axis->setRange(range.first, range.second);
  savedRanges_.clear();
}

void PlotLegendLayout::putAway() {
  const bool changed = side_ || !savedRanges_.empty();
  restoreRanges();
  putInside();
  if (changed) relayout(plot_);
}

bool PlotLegendLayout::place(const std::function<void(DataOccupancy&)>& markData) {
  // Every decision is taken with the legend inside, on the full-size axis rect, over the data's
  // own ranges.
  putAway();
  if (placement_ == LegendPlacement::Right || placement_ == LegendPlacement::Below) {
    putOutside(placement_ == LegendPlacement::Right ? Side::Right : Side::Below);
    return true;
  }
  arrange(columns_ > 0 ? columns_ : 1);
  if (userPosition_) {
    const QRectF area = plot_->axisRect()->rect();
    setInsideAt(QPointF(area.left() + userPosition_->x() * area.width(),
                        area.top() + userPosition_->y() * area.height()));
    return false;
  }
  DataOccupancy occupancy(plot_->axisRect()->rect());
  markData(occupancy);
  const QSizeF size = plot_->legend->minimumOuterSizeHint();
  if (const auto spot = emptiestLegendSpot(occupancy, size, margin())) {
    setInsideAt(*spot);
    return false;
  }
  if (placement_ == LegendPlacement::Inside) {
    if (placeAboveData(markData)) return false;
    arrange(columns_ > 0 ? columns_ : 1);
    setInsideAt(leastCoveredLegendSpot(occupancy, plot_->legend->minimumOuterSizeHint(), margin()));
    return false;
  }
  if (!paper_) {
    putOutside();
    return true;
  }
  // A paper figure: outside where the axes keep at least half of the figure, else above the data.
  const double right = axesShareWith(Side::Right), below = axesShareWith(Side::Below);
  const Side side = right > below ? Side::Right : Side::Below;
  if (std::max(right, below) < 0.5 && placeAboveData(markData)) return false;
  putOutside(side);
  return true;
}

int PlotLegendLayout::tickLength() const {
  int ticks = 0;
  for (const QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->xAxis2, plot_->yAxis2})
    if (axis->visible()) ticks = std::max({ticks, axis->tickLengthIn(), axis->subTickLengthIn()});
  return ticks;
}

double PlotLegendLayout::margin() const {
  return std::max(8, tickLength() + 3);
}

double PlotLegendLayout::axesShareWith(Side side) {
  putOutside(side);
  relayout(plot_);
  const QRect axes = plot_->axisRect()->rect();
  const QRect all = plot_->viewport();
  const double share = static_cast<double>(axes.width()) * axes.height() /
                       std::max(1.0, static_cast<double>(all.width()) * all.height());
  putInside();
  relayout(plot_);
  return share;
}

bool PlotLegendLayout::placeAboveData(const std::function<void(DataOccupancy&)>& markData) {
  // The value axes' own ranges, which every try extends.
  std::vector<std::pair<QCPAxis*, QCPRange>> own;
  for (QCPAxis* axis : {plot_->yAxis, plot_->yAxis2})
    if (axis->visible()) own.push_back({axis, axis->range()});
  // Twice at most: the extended ranges' tick labels may narrow the axes, and the legend then
  // takes more rows.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const QRectF area = plot_->axisRect()->rect();
    arrange(columns_ > 0 ? columns_ : columnsThatFit(area.width() - 2 * margin()));
    const QSizeF size = plot_->legend->minimumOuterSizeHint();
    // The band: the legend, its gap to the axis and as much again to the data below it. The data
    // keep at least half of the axes' height.
    const double band = size.height() + 2 * margin() + 4;
    if (size.width() + 2 * margin() > area.width() || band > 0.5 * area.height()) break;
    restoreRanges();
    for (const auto& [axis, range] : own) {
      savedRanges_.push_back({axis, {range.lower, range.upper}});
      axis->setRange(extendedUpward(axis->scaleType(), range, band / area.height()));
    }
    relayout(plot_);
    DataOccupancy occupancy(plot_->axisRect()->rect());
    markData(occupancy);
    // The new ranges' tick labels may have narrowed the axes by a few pixels: the legend may then
    // come closer to them, short of their ticks.
    for (const double gap : {margin(), tickLength() + 1.0})
      if (const auto spot = freeLegendSpotAtTop(occupancy, size, gap)) {
        setInsideAt(*spot);
        return true;
      }
  }
  restoreRanges();
  relayout(plot_);
  return false;
}

void PlotLegendLayout::setInsideAt(const QPointF& spot) {
  QCPLegend* legend = plot_->legend;
  QCPLayoutInset* inset = plot_->axisRect()->insetLayout();
  int index = 0;
  while (index < inset->elementCount() && inset->elementAt(index) != legend)
    ++index;
  const QRectF area = plot_->axisRect()->rect();
  const QSizeF size = legend->minimumOuterSizeHint();
  // Kept whole inside the axes (at their top-left corner when larger than they are).
  const double left =
      std::clamp(spot.x(), area.left(), std::max(area.left(), area.right() - size.width()));
  const double top =
      std::clamp(spot.y(), area.top(), std::max(area.top(), area.bottom() - size.height()));
  inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
  inset->setInsetRect(
      index, QRectF((left - area.left()) / area.width(), (top - area.top()) / area.height(),
                    size.width() / area.width(), size.height() / area.height()));
}

void PlotLegendLayout::moveTo(const QPointF& topLeft) {
  const QRectF area = plot_->axisRect()->rect();
  if (area.width() <= 0 || area.height() <= 0) return;
  userPosition_ = QPointF((topLeft.x() - area.left()) / area.width(),
                          (topLeft.y() - area.top()) / area.height());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotLegendLayout::arrange(int columns) {
  QCPLegend* legend = plot_->legend;
  // The wrap first: rearranging (setFillOrder's second argument) lays the entries out by it.
  if (columns <= 1) {
    legend->setWrap(0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
  } else {
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
  }
}

int PlotLegendLayout::columnsThatFit(double width) const {
  const QCPLegend* legend = plot_->legend;
  // The entries' widths in their order (the grid's cells past the last entry are empty).
  std::vector<int> entries;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (const QCPAbstractLegendItem* item = legend->item(i))
      entries.push_back(item->minimumOuterSizeHint().width());
  const int count = static_cast<int>(entries.size());
  if (count <= 1) return 1;
  // The legend's width with its entries in rows of `columns`.
  const auto widthIn = [&](int columns) {
    std::vector<int> widest(static_cast<std::size_t>(columns), 0);
    for (int i = 0; i < count; ++i) {
      int& column = widest[static_cast<std::size_t>(i % columns)];
      column = std::max(column, entries[static_cast<std::size_t>(i)]);
    }
    int total = legend->margins().left() + legend->margins().right() +
                (columns - 1) * legend->columnSpacing();
    for (int w : widest)
      total += w;
    return total;
  };
  int fitting = 1;
  for (int columns = count; columns > 1; --columns)
    if (widthIn(columns) <= width) {
      fitting = columns;
      break;
    }
  // As few columns as the rows need, where they fit.
  const int rows = (count + fitting - 1) / fitting;
  const int even = (count + rows - 1) / rows;
  return widthIn(even) <= width ? even : fitting;
}

void PlotLegendLayout::putInside() {
  if (!side_) return;
  side_->take(plot_->legend);
  plot_->plotLayout()->remove(side_);  // deletes it (and its fillers)
  side_ = nullptr;
  plot_->plotLayout()->simplify();
  arrange(1);
  plot_->axisRect()->insetLayout()->addElement(plot_->legend, Qt::AlignTop | Qt::AlignRight);
}

void PlotLegendLayout::putOutside() {
  // On screen: beside the axes when narrow, below them when wide.
  const QSize size = plot_->legend->minimumOuterSizeHint();
  putOutside(size.width() < 0.3 * plot_->viewport().width() ? Side::Right : Side::Below);
}

void PlotLegendLayout::putOutside(Side side) {
  if (side_) putInside();
  QCPLegend* legend = plot_->legend;
  plot_->axisRect()->insetLayout()->take(legend);
  side_ = new QCPLayoutGrid;
  QCPLayoutGrid* layout = plot_->plotLayout();
  const int axisRow = axisRowOf(plot_);
  const int gap = paper_ ? 3 : 6;
  if (side == Side::Right) {
    // Beside the axes, top-aligned.
    arrange(columns_ > 0 ? columns_ : 1);
    layout->addElement(axisRow, 1, side_);
    layout->setColumnStretchFactor(1, 0.001);
    side_->addElement(0, 0, legend);
    side_->addElement(1, 0, new QCPLayoutElement(plot_));
    side_->setRowStretchFactor(0, 0.001);
    side_->setMargins(QMargins(0, 0, gap, 0));
  } else {
    // Below the axes, entries in as many columns as the width takes (up to four on screen),
    // centred.
    const int fitting = columnsThatFit(plot_->viewport().width() - 2 * gap);
    arrange(columns_ > 0 ? columns_ : paper_ ? fitting : std::min(fitting, 4));
    layout->insertRow(axisRow + 1);
    layout->addElement(axisRow + 1, 0, side_);
    layout->setRowStretchFactor(axisRow + 1, 0.001);
    side_->addElement(0, 0, new QCPLayoutElement(plot_));
    side_->addElement(0, 1, legend);
    side_->addElement(0, 2, new QCPLayoutElement(plot_));
    side_->setColumnStretchFactor(1, 0.001);
    side_->setMargins(QMargins(0, 0, 0, gap));
  }
}

QRectF PlotLegendLayout::rect() const {
  return plot_->legend->outerRect();
}

bool PlotLegendLayout::contains(const QPointF& position) const {
  return plot_->legend->visible() && plot_->legend->outerRect().contains(position.toPoint());
}

}  // namespace rfscope::ui
