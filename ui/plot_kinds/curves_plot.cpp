#include "ui/plot_kinds/curves_plot.h"

#include <qcustomplot.h>

#include <limits>
#include <vector>

#include "ui/legend_placement.h"
#include "ui/plot_kinds/categories_plot.h"
#include "ui/series_colors.h"
#include "ui/series_distinction.h"

namespace rfscope::ui {
namespace {

// Dashes and markers that tell apart series lying on top of each other, by coincidence rank.
Qt::PenStyle dashFor(int rank) {
  static const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
  return dashes[rank % 4];
}
QCPScatterStyle::ScatterShape markerFor(int rank) {
  static const QCPScatterStyle::ScatterShape shapes[] = {
      QCPScatterStyle::ssCircle, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssSquare,
      QCPScatterStyle::ssDiamond};
  return shapes[rank % 4];
}
Qt::BrushStyle hatchFor(int index) {
  static const Qt::BrushStyle hatches[] = {Qt::BDiagPattern, Qt::FDiagPattern, Qt::VerPattern,
                                           Qt::HorPattern};
  return hatches[index % 4];
}

double valueInAxisScale(const QCPAxis* axis, double value) {
  if (!std::isfinite(value)) return std::numeric_limits<double>::quiet_NaN();
  if (!isLogAxis(axis)) return value;
  return value > 0 ? std::log10(value) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

QList<PlotSeries> CurvesPlot::build(const Table& table, QCustomPlot* plot, bool secondaryAxis) {
  QList<PlotSeries> all;
  for (const SeriesHint& hint : table.hints.series) {
    PlotSeries series = seriesOf(hint, table, plot, secondaryAxis);
    const bool interval = hasInterval(hint, table);
    // Points with an interval (e.g. Monte Carlo estimates) get error bars rather than a band.
    const bool errorBars = hint.style == SeriesStyle::Points;
    if (interval && !errorBars) {
      series.low = plot->addGraph(plot->xAxis, series.valueAxis);
      series.high = plot->addGraph(plot->xAxis, series.valueAxis);
      for (QCPGraph* band : {series.low, series.high})
        band->removeFromLegend();
      setFiniteData(series.low, series.x, series.lowValues);
      setFiniteData(series.high, series.x, series.highValues);
      series.high->setChannelFillGraph(series.low);
    }
    addLine(series, plot, series.x);
    if (hint.style == SeriesStyle::Points) series.line->setLineStyle(QCPGraph::lsNone);
    if (interval && errorBars) addErrorBars(series, plot);
    all.push_back(series);
  }
  addMarkers(table, plot);
  return all;
}

void CurvesPlot::addMarkers(const Table& table, QCustomPlot* plot) {
  for (const XMarker& marker : table.hints.xMarkers) {
    if (!std::isfinite(marker.x)) continue;
    DrawnMarker drawn;
    drawn.x = marker.x;
    drawn.color = marker.colorKey.empty() ? QColor(Qt::black) : colorIn(table, marker.colorKey);
    // x in data coordinates, y as a share of the axis rect: the line spans the plot whatever the
    // value axis's range or scale.
    drawn.line = new QCPItemStraightLine(plot);
    for (QCPItemPosition* end : {drawn.line->point1, drawn.line->point2}) {
      end->setAxes(plot->xAxis, plot->yAxis);
      end->setTypeX(QCPItemPosition::ptPlotCoords);
      end->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    drawn.line->point1->setCoords(marker.x, 0);
    drawn.line->point2->setCoords(marker.x, 1);
    drawn.line->setSelectable(false);
    drawn.text = new QCPItemText(plot);
    drawn.text->position->setAxes(plot->xAxis, plot->yAxis);
    drawn.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    drawn.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    drawn.text->position->setCoords(marker.x, 0.02);  // fitToLayout steps successive labels down
    drawn.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    drawn.text->setPadding(QMargins(4, 0, 0, 0));
    drawn.text->setText(QString::fromStdString(marker.label));
    drawn.text->setColor(drawn.color);
    drawn.text->setSelectable(false);
    drawn.text->setClipToAxisRect(true);
    drawn.text->setBrush(QColor(255, 255, 255, 215));  // legible where a curve passes under it
    markers_.push_back(drawn);
  }
}

void CurvesPlot::alignZeros(QCustomPlot* plot, const QList<PlotSeries>& series) {
  // Two linear value axes whose data are all ≥ 0 (e.g. estimates and their relative errors): both
  // start just below 0 by the same share of their range, so that their zeros are one line.
  if (!plot->yAxis2->visible()) return;
  for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
    if (isLogAxis(axis)) return;
    for (const PlotSeries& one : series) {
      if (one.valueAxis != axis || !one.line->visible()) continue;
      for (const QVector<double>* values : {&one.y, &one.lowValues})
        for (const double value : *values)
          if (value < 0) return;
    }
  }
  constexpr double kBottomShare = 0.03;
  for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
    const double upper = axis->range().upper;
    if (upper > 0) axis->setRange(-kBottomShare / (1 - kBottomShare) * upper, upper);
  }
}

void CurvesPlot::fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series) {
  PlotKindRenderer::fitToLayout(plot, series);
  // Each label on the side of its line where it fits (left near the right edge), one text line
  // below the previous marker's so that labels of nearby lines never overprint.
  const QRect area = plot->axisRect()->rect();
  for (int i = 0; i < markers_.size(); ++i) {
    QCPItemText* text = markers_[i].text;
    const QFontMetrics metrics(text->font());
    const int width = metrics.horizontalAdvance(text->text()) + 8;
    const double x = plot->xAxis->coordToPixel(markers_[i].x);
    const bool left = x + width > area.right() && x - width >= area.left();
    const int down = static_cast<int>(std::lround(i * metrics.height() * 1.15));
    text->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    text->setPadding(left ? QMargins(2, 0, 4, 0) : QMargins(4, 0, 2, 0));
    text->position->setCoords(markers_[i].x, 0.02 + down / std::max(1.0, double(area.height())));
  }
}

void CurvesPlot::addItemsToOccupancy(DataOccupancy& occupancy) const {
  for (const DrawnMarker& marker : markers_) {
    const QRectF area = occupancy.area();
    const double x = marker.line->point1->pixelPosition().x();
    occupancy.addVerticalSpan(x, area.top(), area.bottom(), 2);
    const QRectF label(marker.text->topLeft->pixelPosition(),
                       marker.text->bottomRight->pixelPosition());
    for (double y = label.top(); y <= label.bottom(); y += 2)
      occupancy.addPolyline({QPointF(label.left(), y), QPointF(label.right(), y)}, 1);
  }
}

void CurvesPlot::remove(QCustomPlot* plot) {
  for (const DrawnMarker& marker : markers_) {
    plot->removeItem(marker.line);
    plot->removeItem(marker.text);
  }
  markers_.clear();
}

void CurvesPlot::fit(QCustomPlot* plot, const QList<PlotSeries>& series) const {
  PlotKindRenderer::fit(plot, series);
  alignZeros(plot, series);
  // Markers stay in view: the exact value may lie outside every sample's range.
  QCPRange range = plot->xAxis->range();
  for (const DrawnMarker& marker : markers_)
    range.expand(marker.x);
  if (range != plot->xAxis->range()) {
    plot->xAxis->setRange(range);
    addMargins(plot->xAxis);
  }
}

void CurvesPlot::distinguish(QCustomPlot* plot, QList<PlotSeries>& series) const {
  // Coinciding lines, per value axis (series of different axes never hide each other's meaning).
  for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
    std::vector<QVector<double>> values;
    std::vector<bool> lines;
    std::vector<PlotSeries*> members;
    for (auto& one : series) {
      if (one.valueAxis != axis) continue;
      one.coincidenceRank = one.coincidenceDepth = 0;
      if (!one.line->visible()) continue;
      QVector<double> scaled(one.y.size());
      for (int i = 0; i < one.y.size(); ++i)
        scaled[i] = valueInAxisScale(axis, one.y[i]);
      values.push_back(scaled);
      lines.push_back(one.style != SeriesStyle::Points);
      members.push_back(&one);
    }
    const std::vector<Coincidence> found = findCoincidences(values, lines);
    for (std::size_t i = 0; i < members.size(); ++i) {
      members[i]->coincidenceRank = found[i].rank;
      members[i]->coincidenceDepth = found[i].depth;
    }
  }
  // Overlapping bands are hatched.
  for (auto& one : series)
    one.hatched = false;
  for (int i = 0; i < series.size(); ++i)
    for (int j = i + 1; j < series.size(); ++j) {
      PlotSeries& a = series[i];
      PlotSeries& b = series[j];
      if (!a.low || !b.low || !a.low->visible() || !b.low->visible() || !a.line->visible() ||
          !b.line->visible() || a.valueAxis != b.valueAxis)
        continue;
      if (bandsOverlap(a.lowValues, a.highValues, b.lowValues, b.highValues))
        a.hatched = b.hatched = true;
    }
}

void CurvesPlot::style(QList<PlotSeries>& series, const PlotStyle& style) const {
  const double width = style.lineWidth, marker = style.markerSize;
  const bool stale = style.stale;
  for (const DrawnMarker& drawn : markers_) {
    QColor color = drawn.color;
    if (stale) color.setAlpha(90);
    drawn.line->setPen(QPen(color, std::max(1.0, width * 0.6), Qt::DashLine));
    drawn.text->setColor(color);
    drawn.text->setFont(drawn.text->parentPlot()->xAxis->tickLabelFont());
  }
  int hatchIndex = 0;
  for (PlotSeries& one : series) {
    QColor color = one.color;
    if (stale) color.setAlpha(90);  // a previous result: faded behind the mark
    const int rank = one.coincidenceRank;
    // A series others lie on is drawn wider, so its colour shows on both sides of them.
    QPen pen(color, width + one.coincidenceDepth * (1.2 + 0.5 * width), dashFor(rank));
    one.line->setPen(pen);
    const bool markers = one.style != SeriesStyle::Line || rank > 0;
    if (markers) {
      QCPScatterStyle scatter(markerFor(rank), color,
                              rank > 0 || largeMarkers_ ? marker * 1.6 : marker);
      // Few, large, filled: one per category; points without an interval (observed data) are
      // filled too, to stand out over bands.
      if (largeMarkers_ || (one.style == SeriesStyle::Points && !one.errorBars))
        scatter.setBrush(color);
      scatter.setPen(QPen(color, std::max(1.0, width * 0.6)));
      one.line->setScatterStyle(scatter);
      // Dashed twins carry a marker every few points, enough to identify them.
      const int points = one.line->dataCount();
      one.line->setScatterSkip(one.style == SeriesStyle::Line ? std::max(0, points / 12 - 1) : 0);
    } else {
      one.line->setScatterStyle(QCPScatterStyle());
    }
    if (one.errorBars) one.errorBars->setPen(QPen(color, std::max(1.0, width * 0.6)));
    if (one.high) {
      QColor fill = color;
      if (one.hatched) {
        // Hatching in the band's own colour over a faint tint: where bands overlap, both patterns
        // stay visible and no blended colour appears that could be read as a third series.
        fill.setAlpha(stale ? 60 : 190);
        one.high->setBrush(QBrush(fill, hatchFor(hatchIndex++)));
        QColor tint = color;
        tint.setAlpha(stale ? 8 : 18);
        one.low->setBrush(tint);
        one.low->setChannelFillGraph(one.high);
        QColor edge = color;
        edge.setAlpha(stale ? 50 : 150);
        for (QCPGraph* band : {one.low, one.high})
          band->setPen(QPen(edge, std::max(0.8, width * 0.5)));
      } else {
        fill.setAlpha(stale ? 25 : 55);
        one.high->setBrush(fill);
        one.low->setBrush(Qt::NoBrush);
        one.low->setChannelFillGraph(nullptr);
        for (QCPGraph* band : {one.low, one.high})
          band->setPen(Qt::NoPen);
      }
    }
  }
}

std::unique_ptr<PlotKindRenderer> makeCurvesPlot(const Table& table) {
  if (table.rowCount() == 1 && !table.hints.series.empty())
    return std::make_unique<CategoriesPlot>();
  return std::make_unique<CurvesPlot>();
}

}  // namespace rfscope::ui
