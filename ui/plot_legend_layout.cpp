#include "ui/plot_legend_layout.h"

#include <qcustomplot.h>

#include "ui/legend_placement.h"

namespace rfscope::ui {

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

bool PlotLegendLayout::place(const std::function<void(DataOccupancy&)>& markData) {
  QCPLegend* legend = plot_->legend;
  // Every decision is taken with the legend inside, on the full-size axis rect.
  if (side_) {
    putInside();
    relayout(plot_);
  }
  QCPAxisRect* axisRect = plot_->axisRect();
  QCPLayoutInset* inset = axisRect->insetLayout();
  int index = 0;
  while (index < inset->elementCount() && inset->elementAt(index) != legend)
    ++index;
  const QRectF area = axisRect->rect();
  const QSizeF size = legend->minimumOuterSizeHint();
  std::optional<QPointF> spot;
  if (userPosition_) {
    spot = QPointF(area.left() + userPosition_->x() * area.width(),
                   area.top() + userPosition_->y() * area.height());
  } else {
    DataOccupancy occupancy(area);
    markData(occupancy);
    spot = emptiestLegendSpot(occupancy, size);
  }
  if (!spot) {
    putOutside();
    return true;
  }
  // Kept whole inside the axes.
  const double left = std::clamp(spot->x(), area.left(), area.right() - size.width());
  const double top = std::clamp(spot->y(), area.top(), area.bottom() - size.height());
  inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
  inset->setInsetRect(
      index, QRectF((left - area.left()) / area.width(), (top - area.top()) / area.height(),
                    size.width() / area.width(), size.height() / area.height()));
  return false;
}

void PlotLegendLayout::moveTo(const QPointF& topLeft) {
  const QRectF area = plot_->axisRect()->rect();
  if (area.width() <= 0 || area.height() <= 0) return;
  userPosition_ = QPointF((topLeft.x() - area.left()) / area.width(),
                          (topLeft.y() - area.top()) / area.height());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotLegendLayout::putInside() {
  if (!side_) return;
  side_->take(plot_->legend);
  plot_->plotLayout()->remove(side_);  // deletes it (and its fillers)
  side_ = nullptr;
  plot_->plotLayout()->simplify();
  // The wrap first: rearranging (setFillOrder's second argument) lays the entries out by it.
  plot_->legend->setWrap(0);
  plot_->legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
  plot_->axisRect()->insetLayout()->addElement(plot_->legend, Qt::AlignTop | Qt::AlignRight);
}

void PlotLegendLayout::putOutside() {
  if (side_) return;
  QCPLegend* legend = plot_->legend;
  plot_->axisRect()->insetLayout()->take(legend);
  side_ = new QCPLayoutGrid;
  QCPLayoutGrid* layout = plot_->plotLayout();
  const QSize size = legend->minimumOuterSizeHint();
  const int axisRow = 1;  // below the title
  if (size.width() < 0.3 * plot_->viewport().width()) {
    // Beside the axes, top-aligned.
    layout->addElement(axisRow, 1, side_);
    layout->setColumnStretchFactor(1, 0.001);
    side_->addElement(0, 0, legend);
    side_->addElement(1, 0, new QCPLayoutElement(plot_));
    side_->setRowStretchFactor(0, 0.001);
    side_->setMargins(QMargins(0, 0, 6, 0));
  } else {
    // Below the axes, entries in as many columns (up to four) as the width takes, centred.
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
      widest = std::max(widest, legend->item(i)->minimumOuterSizeHint().width());
    const int frame = std::max(0, size.width() - widest);  // the legend's border and margins
    const int spacing = legend->columnSpacing();
    const int columns =
        std::max(1, (plot_->viewport().width() - frame + spacing) / (widest + spacing));
    legend->setWrap(std::min(columns, 4));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    layout->addElement(axisRow + 1, 0, side_);
    layout->setRowStretchFactor(axisRow + 1, 0.001);
    side_->addElement(0, 0, new QCPLayoutElement(plot_));
    side_->addElement(0, 1, legend);
    side_->addElement(0, 2, new QCPLayoutElement(plot_));
    side_->setColumnStretchFactor(1, 0.001);
    side_->setMargins(QMargins(0, 0, 0, 6));
  }
}

QRectF PlotLegendLayout::rect() const {
  return plot_->legend->outerRect();
}

bool PlotLegendLayout::contains(const QPointF& position) const {
  return plot_->legend->visible() && plot_->legend->outerRect().contains(position.toPoint());
}

}  // namespace rfscope::ui
