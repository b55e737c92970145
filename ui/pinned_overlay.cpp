#include "ui/pinned_overlay.h"

#include <qcustomplot.h>

namespace rfscope::ui {
namespace {

constexpr const char* kLayer = "pinned";
constexpr int kLineAlpha = 150;
const QColor kLegendText(100, 100, 100);

// Pins go under the current table's series (which are on the "main" layer).
QCPLayer* pinnedLayer(QCustomPlot* plot) {
  if (QCPLayer* layer = plot->layer(kLayer)) return layer;
  plot->addLayer(kLayer, plot->layer("main"), QCustomPlot::limBelow);
  return plot->layer(kLayer);
}

}  // namespace

void PinnedOverlay::build(QCustomPlot* plot, const QList<PinnedCurves>& pins, bool secondaryAxis) {
  remove(plot);
  QCPLayer* layer = pinnedLayer(plot);
  for (const PinnedCurves& pin : pins) {
    if (!pin.table) continue;
    const Table& table = *pin.table;
    for (const SeriesHint& hint : table.hints.series) {
      PlotSeries series = seriesOf(hint, table, plot, secondaryAxis);
      series.label += " (" + pin.suffix + ")";
      series.lowValues.clear();  // drawn without their bands
      series.highValues.clear();
      addLine(series, plot, series.x);
      series.line->setLayer(layer);
      if (hint.style == SeriesStyle::Points) series.line->setLineStyle(QCPGraph::lsNone);
      if (auto* item = plot->legend->itemWithPlottable(series.line))
        item->setTextColor(kLegendText);
      series_.push_back(series);
    }
  }
}

void PinnedOverlay::remove(QCustomPlot* plot) {
  for (const PlotSeries& series : series_)
    if (series.line) plot->removeGraph(series.line);
  series_.clear();
}

void PinnedOverlay::style(const PlotStyle& style) {
  for (PlotSeries& series : series_) {
    QColor color = series.color;
    color.setAlpha(kLineAlpha);
    const double width = std::max(1.2, style.lineWidth * 0.65);
    series.line->setPen(QPen(color, width, Qt::DashLine));
    if (series.style == SeriesStyle::Line) {
      series.line->setScatterStyle(QCPScatterStyle());
    } else {
      // Hollow markers: the live result's markers are filled or larger.
      series.line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, width),
                                                   Qt::NoBrush, style.markerSize * 0.9));
    }
  }
}

}  // namespace rfscope::ui
