#pragma once
// Where a plot's legend covers no data: the drawn data of an axis rect is rasterised onto a coarse
// occupancy grid (lines, markers, filled bands, error bars), and candidate legend rectangles —
// the corners first, then the middles of the edges — are tested against it. The spot with the most
// clearance wins; when every spot touches data, the legend belongs outside the axis rect.

#include <QPointF>
#include <QRectF>
#include <QVector>
#include <optional>
#include <vector>

namespace rfscope::ui {

class DataOccupancy {
 public:
  explicit DataOccupancy(const QRectF& area, double cellPixels = 4);

  // Points in pixels; non-finite points break the line.
  void addPolyline(const QVector<QPointF>& points, double halfWidth);
  void addMarker(const QPointF& point, double radius);
  // A filled band between two boundaries sampled at the same x (pixels; low/high may be swapped).
  void addBand(const QVector<double>& x, const QVector<double>& low, const QVector<double>& high);
  void addVerticalSpan(double x, double y1, double y2, double halfWidth);

  // Occupied cells that overlap the rectangle (pixels; parts outside the area count nothing).
  int occupiedCells(const QRectF& rect) const;
  const QRectF& area() const { return area_; }

 private:
  void mark(int column, int row);
  void markDisc(const QPointF& centre, double radius);
  void markColumnSpan(double x, double y1, double y2);
  void buildSums() const;

  QRectF area_;
  double cell_;
  int columns_, rows_;
  std::vector<unsigned char> cells_;
  mutable std::vector<int> sums_;  // summed-area table, (columns + 1) × (rows + 1)
  mutable bool sumsValid_ = false;
};

// The top-left corner (pixels) of the best legend position inside occupancy's area, or nothing if
// the legend would cover data wherever it went. margin: the gap kept to the axes.
std::optional<QPointF> emptiestLegendSpot(const DataOccupancy& occupancy, const QSizeF& legend,
                                          double margin = 8);

// The top-left corner of a place along the top of occupancy's area (right, left, middle) where the
// legend covers no data, or nothing.
std::optional<QPointF> freeLegendSpotAtTop(const DataOccupancy& occupancy, const QSizeF& legend,
                                           double margin = 8);

// The top-left corner of the candidate position (as emptiestLegendSpot's) where the legend covers
// the fewest occupied cells, kept inside the area where it fits.
QPointF leastCoveredLegendSpot(const DataOccupancy& occupancy, const QSizeF& legend,
                               double margin = 8);

}  // namespace rfscope::ui
