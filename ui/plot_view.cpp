#include "ui/plot_view.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "ui/series_colors.h"

namespace rfscope::ui {
namespace {

constexpr double kHoverRadiusPixels = 24;

QVector<double> toVector(const Column* column) {
  return column ? QVector<double>(column->values.begin(), column->values.end()) : QVector<double>();
}

QString number(double value) {
  if (std::isnan(value)) return QStringLiteral("n/a");
  return QString::number(value, 'g', 8);
}

// Rows where a series has no value (another series' grid point, an unavailable quantity) are
// skipped rather than drawn as gaps, so lines stay connected across them.
void setFiniteData(QCPGraph* graph, const QVector<double>& x, const QVector<double>& y) {
  QVector<double> keys, values;
  keys.reserve(x.size());
  values.reserve(x.size());
  for (int i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) continue;
    keys.push_back(x[i]);
    values.push_back(y[i]);
  }
  graph->setData(keys, values, true);
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
  title_ =
      new QCPTextElement(plot_, "", QFont(font().family(), font().pointSize() + 1, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  plot_->setMouseTracking(true);
  setMinimumSize(480, 320);

  connect(plot_, &QCustomPlot::mouseWheel, this, [this]() { userAdjustedView_ = true; });
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotView::onMouseMove);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this]() { resetView(); });
  connect(plot_, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
            if (!entry) return;
            const QString label = entry->plottable()->name();
            setSeriesVisible(label, hidden_.contains(label));
          });
}

void PlotView::removeSeries() {
  for (auto& series : series_)
    if (series.errorBars) plot_->removePlottable(series.errorBars);
  plot_->clearGraphs();
  series_.clear();
}

void PlotView::clear() {
  removeSeries();
  title_->setText("");
  userAdjustedView_ = false;
  plot_->replot();
}

void PlotView::setTable(const Table& table) {
  removeSeries();
  const PlotHints& hints = table.hints;
  const QVector<double> x = toVector(table.column(hints.xColumn));
  title_->setText(QString::fromStdString(hints.title));
  xLabel_ = QString::fromStdString(hints.xLabel);
  plot_->xAxis->setLabel(xLabel_);
  plot_->yAxis->setLabel(QString::fromStdString(hints.yLabel));
  hintXLog_ = hints.xLog;
  hintYLog_ = hints.yLog;

  for (const SeriesHint& hint : hints.series) {
    Series series;
    series.label =
        QString::fromStdString(hint.label) +
        (hint.warning.empty() ? "" : QStringLiteral(" ⚠ ") + QString::fromStdString(hint.warning));
    series.x = x;
    series.y = toVector(table.column(hint.yColumn));
    const QColor color = seriesColor(hint.colorKey);
    const Column* low = hint.lowColumn.empty() ? nullptr : table.column(hint.lowColumn);
    const Column* high = hint.highColumn.empty() ? nullptr : table.column(hint.highColumn);
    const bool errorBars = hint.style == SeriesStyle::Points;
    if (low && high) {
      series.lowValues = toVector(low);
      series.highValues = toVector(high);
    }
    if (low && high && !errorBars) {
      series.low = plot_->addGraph();
      series.high = plot_->addGraph();
      for (QCPGraph* band : {series.low, series.high}) {
        band->setPen(Qt::NoPen);
        band->removeFromLegend();
      }
      setFiniteData(series.low, x, series.lowValues);
      setFiniteData(series.high, x, series.highValues);
      QColor fill = color;
      fill.setAlpha(55);
      series.high->setBrush(fill);
      series.high->setChannelFillGraph(series.low);
    }
    series.line = plot_->addGraph();
    series.line->setName(series.label);
    series.line->setPen(QPen(color, 2));
    if (hint.style != SeriesStyle::Line) {
      series.line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 5));
      if (hint.style == SeriesStyle::Points) series.line->setLineStyle(QCPGraph::lsNone);
    }
    setFiniteData(series.line, x, series.y);
    if (low && high && errorBars) {
      // Points with an interval (e.g. Monte Carlo estimates): error bars rather than a band.
      series.errorBars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
      series.errorBars->removeFromLegend();
      series.errorBars->setDataPlottable(series.line);
      series.errorBars->setPen(QPen(color, 1.2));
      QVector<double> below, above;  // one per point the line kept (see setFiniteData)
      for (int i = 0; i < std::min(series.x.size(), series.y.size()); ++i) {
        if (std::isnan(series.x[i]) || std::isnan(series.y[i])) continue;
        below.push_back(series.y[i] - series.lowValues[i]);
        above.push_back(series.highValues[i] - series.y[i]);
      }
      series.errorBars->setData(below, above);
    }
    series_.push_back(series);
  }
  for (const auto& series : series_)
    setSeriesVisible(series.label, !hidden_.contains(series.label));
  applyAxisScales();
  applyStyle();
  if (!userAdjustedView_) fitView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::fitView() {
  plot_->rescaleAxes(true);
  // A 4% margin keeps markers and error bars at the edges inside the axes.
  plot_->xAxis->scaleRange(1.04);
  plot_->yAxis->scaleRange(1.04);
}

void PlotView::resetView() {
  userAdjustedView_ = false;
  fitView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emit viewChanged();
}

bool PlotView::logX() const {
  return userXLog_.value_or(hintXLog_);
}
bool PlotView::logY() const {
  return userYLog_.value_or(hintYLog_);
}

void PlotView::setLogX(bool on) {
  userXLog_ = on;
  applyAxisScales();
  resetView();
}

void PlotView::setLogY(bool on) {
  userYLog_ = on;
  applyAxisScales();
  resetView();
}

void PlotView::applyAxisScales() {
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    const bool logScale = axis == plot_->xAxis ? logX() : logY();
    if ((axis->scaleType() == QCPAxis::stLogarithmic) == logScale) continue;
    axis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logScale)
      axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
      axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
}

void PlotView::setCrosshair(bool on) {
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

void PlotView::setPresentationMode(bool on) {
  presentation_ = on;
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::applyStyle() {
  const int base = font().pointSize();
  const int size = presentation_ ? base + 6 : base;
  QFont labelFont = font();
  labelFont.setPointSize(size);
  QFont tickFont = font();
  tickFont.setPointSize(presentation_ ? base + 4 : base);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setLabelFont(labelFont);
    axis->setTickLabelFont(tickFont);
  }
  plot_->legend->setFont(tickFont);
  QFont titleFont = labelFont;
  titleFont.setBold(true);
  title_->setFont(titleFont);
  for (auto& series : series_) {
    QPen pen = series.line->pen();
    pen.setWidthF(presentation_ ? 4 : 2);
    series.line->setPen(pen);
  }
}

void PlotView::setSeriesVisible(const QString& label, bool visible) {
  if (visible)
    hidden_.remove(label);
  else
    hidden_.insert(label);
  for (auto& series : series_) {
    if (series.label != label) continue;
    for (QCPAbstractPlottable* plottable : std::initializer_list<QCPAbstractPlottable*>{
             series.line, series.low, series.high, series.errorBars})
      if (plottable) plottable->setVisible(visible);
    if (auto* item = plot_->legend->itemWithPlottable(series.line))
      item->setTextColor(visible ? Qt::black : Qt::gray);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

PlotViewState PlotView::viewState() const {
  PlotViewState state;
  state.xLog = userXLog_;
  state.yLog = userYLog_;
  if (userAdjustedView_) {
    state.xRange = std::make_pair(plot_->xAxis->range().lower, plot_->xAxis->range().upper);
    state.yRange = std::make_pair(plot_->yAxis->range().lower, plot_->yAxis->range().upper);
  }
  state.hiddenSeries = hidden_;
  return state;
}

void PlotView::setViewState(const PlotViewState& state) {
  userXLog_ = state.xLog;
  userYLog_ = state.yLog;
  applyAxisScales();
  hidden_ = state.hiddenSeries;
  for (const auto& series : series_)
    setSeriesVisible(series.label, !hidden_.contains(series.label));
  if (state.xRange && state.yRange) {
    plot_->xAxis->setRange(state.xRange->first, state.xRange->second);
    plot_->yAxis->setRange(state.yRange->first, state.yRange->second);
    userAdjustedView_ = true;
  } else {
    userAdjustedView_ = false;
    fitView();
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PlotView::describePointNear(const QPointF& position) const {
  double best = kHoverRadiusPixels;
  const Series* bestSeries = nullptr;
  int bestIndex = -1;
  for (const auto& series : series_) {
    if (!series.line->visible()) continue;
    for (int i = 0; i < series.x.size(); ++i) {
      if (!std::isfinite(series.y[i])) continue;
      const double px = plot_->xAxis->coordToPixel(series.x[i]);
      const double py = plot_->yAxis->coordToPixel(series.y[i]);
      const double distance = std::hypot(px - position.x(), py - position.y());
      if (distance < best) {
        best = distance;
        bestSeries = &series;
        bestIndex = i;
      }
    }
  }
  if (!bestSeries) return {};
  QString text = "<b>" + bestSeries->label.toHtmlEscaped() + "</b><br>" + xLabel_.toHtmlEscaped() +
                 " = " + number(bestSeries->x[bestIndex]) +
                 "<br>y = " + number(bestSeries->y[bestIndex]);
  if (!bestSeries->lowValues.isEmpty())
    text += "<br>band: [" + number(bestSeries->lowValues[bestIndex]) + ", " +
            number(bestSeries->highValues[bestIndex]) + "]";
  return text;
}

void PlotView::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) userAdjustedView_ = true;  // dragging pans the view
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
  const QString text = describePointNear(event->position());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

int PlotView::seriesCount() const {
  return static_cast<int>(series_.size());
}
int PlotView::seriesPointCount(int series) const {
  return series_.at(series).line->dataCount();
}
QString PlotView::seriesName(int series) const {
  return series_.at(series).label;
}
bool PlotView::seriesVisible(int series) const {
  return series_.at(series).line->visible();
}

}  // namespace rfscope::ui
