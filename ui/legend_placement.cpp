#include "ui/legend_placement.h"

#include <QSizeF>
#include <algorithm>
#include <cmath>

namespace rfscope::ui {
namespace {

bool finite(const QPointF& p) {
  return std::isfinite(p.x()) && std::isfinite(p.y());
}

}  // namespace

DataOccupancy::DataOccupancy(const QRectF& area, double cellPixels)
    : area_(area),
      cell_(cellPixels),
      columns_(std::max(1, static_cast<int>(std::ceil(area.width() / cellPixels)))),
      rows_(std::max(1, static_cast<int>(std::ceil(area.height() / cellPixels)))),
      cells_(static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_), 0) {}

void DataOccupancy::mark(int column, int row) {
  if (column < 0 || row < 0 || column >= columns_ || row >= rows_) return;
  cells_[static_cast<std::size_t>(row) * columns_ + column] = 1;
  sumsValid_ = false;
}

void DataOccupancy::markDisc(const QPointF& centre, double radius) {
  // Far outside points (a log axis maps them far away) would only waste the loop.
  if (!finite(centre) || centre.x() < area_.left() - radius ||
      centre.x() > area_.right() + radius || centre.y() < area_.top() - radius ||
      centre.y() > area_.bottom() + radius)
    return;
  const int c0 = static_cast<int>(std::floor((centre.x() - radius - area_.left()) / cell_));
  const int c1 = static_cast<int>(std::floor((centre.x() + radius - area_.left()) / cell_));
  const int r0 = static_cast<int>(std::floor((centre.y() - radius - area_.top()) / cell_));
  const int r1 = static_cast<int>(std::floor((centre.y() + radius - area_.top()) / cell_));
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c)
      mark(c, r);
}

void DataOccupancy::markColumnSpan(double x, double y1, double y2) {
  if (!std::isfinite(x) || !std::isfinite(y1) || !std::isfinite(y2)) return;
  if (y1 > y2) std::swap(y1, y2);
  const int column = static_cast<int>(std::floor((x - area_.left()) / cell_));
  if (column < 0 || column >= columns_) return;
  const int r0 = std::max(0, static_cast<int>(std::floor((y1 - area_.top()) / cell_)));
  const int r1 = std::min(rows_ - 1, static_cast<int>(std::floor((y2 - area_.top()) / cell_)));
  for (int r = r0; r <= r1; ++r)
    mark(column, r);
}

void DataOccupancy::addPolyline(const QVector<QPointF>& points, double halfWidth) {
  for (int i = 0; i < points.size(); ++i) {
    if (!finite(points[i])) continue;
    markDisc(points[i], halfWidth);
    if (i + 1 >= points.size() || !finite(points[i + 1])) continue;
    const QPointF a = points[i], b = points[i + 1];
    // Clip to a slightly enlarged area so that steep segments of log axes stay cheap.
    const QRectF bounds = area_.adjusted(-cell_, -cell_, cell_, cell_);
    if (std::max(a.x(), b.x()) < bounds.left() || std::min(a.x(), b.x()) > bounds.right() ||
        std::max(a.y(), b.y()) < bounds.top() || std::min(a.y(), b.y()) > bounds.bottom())
      continue;
    const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
    const int steps = std::min(20000, static_cast<int>(std::ceil(length / (cell_ * 0.5))));
    for (int s = 1; s < steps; ++s)
      markDisc(a + (b - a) * (static_cast<double>(s) / steps), halfWidth);
  }
}

void DataOccupancy::addMarker(const QPointF& point, double radius) {
  markDisc(point, radius);
}

void DataOccupancy::addVerticalSpan(double x, double y1, double y2, double halfWidth) {
  for (double dx = -halfWidth; dx <= halfWidth; dx += cell_ * 0.5)
    markColumnSpan(x + dx, y1, y2);
  markColumnSpan(x + halfWidth, y1, y2);
}

void DataOccupancy::addBand(const QVector<double>& x, const QVector<double>& low,
                            const QVector<double>& high) {
  const int n = static_cast<int>(std::min({x.size(), low.size(), high.size()}));
  int previous = -1;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(low[i]) || !std::isfinite(high[i])) continue;
    markColumnSpan(x[i], low[i], high[i]);
    if (previous >= 0) {
      // Fill the columns between two samples, boundaries interpolated linearly.
      const double x0 = x[previous], x1 = x[i];
      const int steps = std::min(20000, static_cast<int>(std::ceil(std::abs(x1 - x0) / cell_)));
      for (int s = 1; s < steps; ++s) {
        const double t = static_cast<double>(s) / steps;
        markColumnSpan(x0 + t * (x1 - x0), low[previous] + t * (low[i] - low[previous]),
                       high[previous] + t * (high[i] - high[previous]));
      }
    }
    previous = i;
  }
}

void DataOccupancy::buildSums() const {
  sums_.assign(static_cast<std::size_t>(columns_ + 1) * (rows_ + 1), 0);
  const auto at = [this](int c, int r) -> int& {
    return sums_[static_cast<std::size_t>(r) * (columns_ + 1) + c];
  };
  for (int r = 0; r < rows_; ++r)
    for (int c = 0; c < columns_; ++c)
      at(c + 1, r + 1) = cells_[static_cast<std::size_t>(r) * columns_ + c] + at(c, r + 1) +
                         at(c + 1, r) - at(c, r);
  sumsValid_ = true;
}

int DataOccupancy::occupiedCells(const QRectF& rect) const {
  if (!sumsValid_) buildSums();
  const auto clampColumn = [this](double x) {
    return std::clamp(static_cast<int>(std::floor((x - area_.left()) / cell_)), 0, columns_);
  };
  const auto clampRow = [this](double y) {
    return std::clamp(static_cast<int>(std::floor((y - area_.top()) / cell_)), 0, rows_);
  };
  const int c0 = clampColumn(rect.left()), c1 = clampColumn(rect.right() + cell_);
  const int r0 = clampRow(rect.top()), r1 = clampRow(rect.bottom() + cell_);
  if (c1 <= c0 || r1 <= r0) return 0;
  const auto at = [this](int c, int r) {
    return sums_[static_cast<std::size_t>(r) * (columns_ + 1) + c];
  };
  return at(c1, r1) - at(c0, r1) - at(c1, r0) + at(c0, r0);
}

namespace {

// The legend's candidate positions in the area (top-left corners): corners first (top-right is
// where readers look for a legend), then the edges' middles.
std::vector<QPointF> candidateSpots(const QRectF& area, const QSizeF& legend, double margin) {
  const double left = area.left() + margin, right = area.right() - margin - legend.width();
  const double top = area.top() + margin, bottom = area.bottom() - margin - legend.height();
  const double middleX = area.center().x() - legend.width() / 2;
  const double middleY = area.center().y() - legend.height() / 2;
  return {{right, top},   {left, top},       {right, bottom},  {left, bottom},
          {middleX, top}, {middleX, bottom}, {right, middleY}, {left, middleY}};
}

bool fits(const QRectF& area, const QSizeF& legend, double margin) {
  return legend.width() + 2 * margin <= area.width() &&
         legend.height() + 2 * margin <= area.height();
}

}  // namespace

std::optional<QPointF> emptiestLegendSpot(const DataOccupancy& occupancy, const QSizeF& legend,
                                          double margin) {
  const QRectF area = occupancy.area();
  if (!fits(area, legend, margin)) return std::nullopt;
  const std::vector<QPointF> candidates = candidateSpots(area, legend, margin);
  // The spot that stays clear of data with the widest surrounding gap wins.
  for (double clearance : {24.0, 12.0, 4.0, 0.0})
    for (const QPointF& corner : candidates) {
      const QRectF rect(corner, legend);
      if (occupancy.occupiedCells(rect.adjusted(-clearance, -clearance, clearance, clearance)) == 0)
        return corner;
    }
  return std::nullopt;
}

std::optional<QPointF> freeLegendSpotAtTop(const DataOccupancy& occupancy, const QSizeF& legend,
                                           double margin) {
  const QRectF area = occupancy.area();
  if (!fits(area, legend, margin)) return std::nullopt;
  const std::vector<QPointF> candidates = candidateSpots(area, legend, margin);
  // Top-right, top-left, top-middle.
  for (double clearance : {12.0, 4.0, 0.0})
    for (const QPointF& corner : {candidates[0], candidates[1], candidates[4]}) {
      const QRectF rect(corner, legend);
      if (occupancy.occupiedCells(rect.adjusted(-clearance, -clearance, clearance, clearance)) == 0)
        return corner;
    }
  return std::nullopt;
}

QPointF leastCoveredLegendSpot(const DataOccupancy& occupancy, const QSizeF& legend,
                               double margin) {
  const QRectF area = occupancy.area();
  if (!fits(area, legend, margin)) return area.topLeft() + QPointF(margin, margin);
  QPointF best;
  int fewest = -1;
  for (const QPointF& corner : candidateSpots(area, legend, margin)) {
    const int covered = occupancy.occupiedCells(QRectF(corner, legend));
    if (fewest < 0 || covered < fewest) {
      fewest = covered;
      best = corner;
    }
  }
  return best;
}

}  // namespace rfscope::ui
