#include "ui/plot_view.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include "ui/series_colors.h"

namespace rfscope::ui {
namespace {

QVector<double> toVector(const Column* column) {
  return column ? QVector<double>(column->values.begin(), column->values.end()) : QVector<double>();
}

}  // namespace

PlotView::PlotView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 220));
  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, "", QFont(font().family(), font().pointSize() + 1, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  setMinimumSize(480, 320);
}

void PlotView::clear() {
  plot_->clearGraphs();
  lines_.clear();
  title_->setText("");
  plot_->replot();
}

void PlotView::setTable(const Table& table) {
  plot_->clearGraphs();
  lines_.clear();
  const PlotHints& hints = table.hints;
  const QVector<double> x = toVector(table.column(hints.xColumn));
  title_->setText(QString::fromStdString(hints.title));
  plot_->xAxis->setLabel(QString::fromStdString(hints.xLabel));
  plot_->yAxis->setLabel(QString::fromStdString(hints.yLabel));
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    const bool logScale = axis == plot_->xAxis ? hints.xLog : hints.yLog;
    axis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logScale) axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }

  for (const SeriesHint& series : hints.series) {
    const QColor color = seriesColor(series.colorKey);
    const Column* low = series.lowColumn.empty() ? nullptr : table.column(series.lowColumn);
    const Column* high = series.highColumn.empty() ? nullptr : table.column(series.highColumn);
    if (low && high) {
      QCPGraph* lowGraph = plot_->addGraph();
      QCPGraph* highGraph = plot_->addGraph();
      for (QCPGraph* band : {lowGraph, highGraph}) {
        band->setPen(Qt::NoPen);
        band->removeFromLegend();
      }
      lowGraph->setData(x, toVector(low), true);
      highGraph->setData(x, toVector(high), true);
      QColor fill = color;
      fill.setAlpha(55);
      highGraph->setBrush(fill);
      highGraph->setChannelFillGraph(lowGraph);
    }
    QCPGraph* line = plot_->addGraph();
    line->setName(QString::fromStdString(series.label) +
                  (series.warning.empty() ? "" : QStringLiteral(" ⚠")));
    line->setPen(QPen(color, 2));
    if (series.style != SeriesStyle::Line) {
      line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 5));
      if (series.style == SeriesStyle::Points) line->setLineStyle(QCPGraph::lsNone);
    }
    line->setData(x, toVector(table.column(series.yColumn)), true);
    lines_.push_back(line);
  }
  plot_->rescaleAxes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PlotView::seriesCount() const { return static_cast<int>(lines_.size()); }

int PlotView::seriesPointCount(int series) const { return lines_.at(series)->dataCount(); }

QString PlotView::seriesName(int series) const { return lines_.at(series)->name(); }

}  // namespace rfscope::ui
