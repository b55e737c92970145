#include "ui/plot_view.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "ui/axis_scales.h"
#include "ui/legend_placement.h"
#include "ui/series_colors.h"
#include "ui/series_distinction.h"

namespace rfscope::ui {
namespace {

constexpr double kHoverRadiusPixels = 24;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A press that moves less than this is a click (QCustomPlot's own threshold).
constexpr int kClickSlopPixels = 3;

QVector<double> toVector(const Column* column) {
  return column ? QVector<double>(column->values.begin(), column->values.end()) : QVector<double>();
}

QString number(double value) {
  if (std::isnan(value)) return QStringLiteral("n/a");
  return QString::number(value, 'g', 8);
}

// Rows where a series has no value (another series' grid point, an unavailable quantity) are
// skipped rather than drawn as gaps, so lines stay connected across them.
template <class Plottable>  // QCPGraph or QCPBars
void setFiniteData(Plottable* plottable, const QVector<double>& x, const QVector<double>& y) {
  QVector<double> keys, values;
  keys.reserve(x.size());
  values.reserve(x.size());
  for (int i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) continue;
    keys.push_back(x[i]);
    values.push_back(y[i]);
  }
  plottable->setData(keys, values, true);
}

bool isLog(const QCPAxis* axis) {
  return axis->scaleType() == QCPAxis::stLogarithmic;
}

// Pixel coordinate of a value, NaN where the axis cannot show it (≤ 0 on a log axis).
double toPixel(const QCPAxis* axis, double value) {
  if (!std::isfinite(value) || (isLog(axis) && value <= 0)) return kNaN;
  return axis->coordToPixel(value);
}

// A band edge's pixel: on a log axis a non-positive edge (a lower bound below zero) is drawn past
// the axis's lower end, so the band fills down to the edge of the plot.
double bandEdgePixel(const QCPAxis* axis, double value) {
  if (!std::isfinite(value)) return kNaN;
  if (!isLog(axis) || value > 0) return axis->coordToPixel(value);
  const double lowerEnd = axis->coordToPixel(axis->range().lower);
  const double upperEnd = axis->coordToPixel(axis->range().upper);
  return lowerEnd + (lowerEnd > upperEnd ? 1e4 : -1e4);
}

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

}  // namespace

QCPAbstractPlottable* PlotView::Series::legendPlottable() const {
  return bars ? static_cast<QCPAbstractPlottable*>(bars) : line;
}

PlotView::PlotView(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), barsGroup_(new QCPBarsGroup(plot_)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 235));
  plot_->legend->setBorderPen(QPen(QColor(150, 150, 150)));
  // Legend positions are computed against the whole axis rect (placeLegend keeps the margin).
  plot_->axisRect()->insetLayout()->setMargins(QMargins());
  plot_->plotLayout()->insertRow(0);
  title_ =
      new QCPTextElement(plot_, "", QFont(font().family(), font().pointSize() + 1, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  // The stale/partial mark: a watermark behind the data, so it hides nothing.
  freshnessMark_ = new QCPItemText(plot_);
  freshnessMark_->setLayer("grid");
  freshnessMark_->position->setType(QCPItemPosition::ptAxisRectRatio);
  freshnessMark_->position->setCoords(0.5, 0.5);
  freshnessMark_->setPositionAlignment(Qt::AlignCenter);
  freshnessMark_->setTextAlignment(Qt::AlignCenter);
  freshnessMark_->setColor(QColor(150, 150, 150, 150));
  freshnessMark_->setVisible(false);
  plot_->setMouseTracking(true);
  setMinimumSize(480, 320);

  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    const auto format = [this, axis]() {
      if (!(textTicksOnX() && axis == plot_->xAxis)) applyTickFormat(axis);
    };
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, format);
    connect(axis, &QCPAxis::scaleTypeChanged, this, format);
    applyTickFormat(axis);
  }
  connect(plot_, &QCustomPlot::afterLayout, this, &PlotView::placeLegend);
  connect(plot_, &QCustomPlot::mouseWheel, this, [this]() { userAdjustedView_ = true; });
  connect(plot_, &QCustomPlot::mousePress, this, &PlotView::onMousePress);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotView::onMouseMove);
  connect(plot_, &QCustomPlot::mouseRelease, this, &PlotView::onMouseRelease);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this]() { resetView(); });
  connect(plot_, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
            if (!entry) return;
            for (const auto& series : series_)
              if (series.legendPlottable() == entry->plottable())
                setSeriesVisible(series.label, hidden_.contains(series.label));
          });
}

void PlotView::removeSeries() {
  for (auto& series : series_) {
    if (series.errorBars) plot_->removePlottable(series.errorBars);
    if (series.bars) plot_->removePlottable(series.bars);
  }
  for (QCPItemText* label : valueLabels_)
    plot_->removeItem(label);
  valueLabels_.clear();
  plot_->clearGraphs();
  series_.clear();
}

void PlotView::clear() {
  removeSeries();
  fullTitle_.clear();
  title_->setText("");
  userAdjustedView_ = false;
  userLegendPosition_.reset();
  setFreshness(PlotFreshness::Current);
  plot_->replot();
}

void PlotView::setTable(const Table& table) {
  removeSeries();
  const PlotHints& hints = table.hints;
  const Column* xColumn = table.column(hints.xColumn);
  const QVector<double> x = toVector(xColumn);
  fullTitle_ = QString::fromStdString(hints.title);
  title_->setText(fullTitle_);
  xLabel_ = QString::fromStdString(hints.xLabel);
  fullXLabel_ = xLabel_;
  fullYLabel_ = QString::fromStdString(hints.yLabel);
  fullY2Label_ = QString::fromStdString(hints.y2Label);
  plot_->xAxis->setLabel(fullXLabel_);
  plot_->yAxis->setLabel(fullYLabel_);
  // A single x value (e.g. one v): each series is a category of its own, side by side, with its
  // value written beside it, rather than points stacked on one vertical line.
  bars_ = hints.bars && !hints.series.empty();
  categorical_ = !bars_ && table.rowCount() == 1 && !hints.series.empty();
  // Bars stand at 1, 2, … (one category per row), named by the x values.
  barRows_ = bars_ ? static_cast<int>(x.size()) : 0;
  QVector<double> keys = x;
  if (bars_)
    for (int row = 0; row < keys.size(); ++row)
      keys[row] = row + 1;
  plot_->xAxis->grid()->setVisible(!bars_);
  // The axes follow the grid: a log-spaced x column is drawn on a log axis unless the user chose.
  hintXLog_ = !textTicksOnX() && (hints.xLog || (xColumn && looksLogSpaced(xColumn->values)));
  hintYLog_ = hints.yLog;
  hintY2Log_ = hints.y2Log;
  bool secondary = false;
  for (const SeriesHint& hint : hints.series)
    secondary = secondary || (hint.secondaryAxis && !hints.y2Label.empty());
  plot_->yAxis2->setVisible(secondary);
  plot_->yAxis2->setLabel(fullY2Label_);

  for (const SeriesHint& hint : hints.series) {
    Series series;
    series.label = QString::fromStdString(hint.label);
    series.warning = QString::fromStdString(hint.warning);
    series.style = hint.style;
    series.color = seriesColor(hint.colorKey);
    series.valueAxis = secondary && hint.secondaryAxis ? plot_->yAxis2 : plot_->yAxis;
    series.x = keys;
    series.y = toVector(table.column(hint.yColumn));
    const Column* low = hint.lowColumn.empty() ? nullptr : table.column(hint.lowColumn);
    const Column* high = hint.highColumn.empty() ? nullptr : table.column(hint.highColumn);
    const bool errorBars = bars_ || hint.style == SeriesStyle::Points;
    if (low && high) {
      series.lowValues = toVector(low);
      series.highValues = toVector(high);
    }
    if (low && high && !errorBars) {
      series.low = plot_->addGraph(plot_->xAxis, series.valueAxis);
      series.high = plot_->addGraph(plot_->xAxis, series.valueAxis);
      for (QCPGraph* band : {series.low, series.high})
        band->removeFromLegend();
      setFiniteData(series.low, x, series.lowValues);
      setFiniteData(series.high, x, series.highValues);
      series.high->setChannelFillGraph(series.low);
    }
    series.line = plot_->addGraph(plot_->xAxis, series.valueAxis);
    // The legend entry carries only the ⚠ mark; the warning itself is in the tooltip and the
    // window's warnings area, where it has room.
    series.line->setName(series.label + (series.warning.isEmpty() ? "" : QStringLiteral(" ⚠")));
    if (hint.style == SeriesStyle::Points || bars_) series.line->setLineStyle(QCPGraph::lsNone);
    setFiniteData(series.line, keys, series.y);
    if (bars_) {
      // The bars carry the legend entry; the graph only keeps the points (hover, tests).
      series.bars = new QCPBars(plot_->xAxis, series.valueAxis);
      series.bars->setName(series.line->name());
      series.bars->setWidthType(QCPBars::wtPlotCoords);
      series.bars->setBarsGroup(barsGroup_);
      setFiniteData(series.bars, keys, series.y);
      series.line->removeFromLegend();
    }
    if (low && high && errorBars) {
      // Points with an interval (e.g. Monte Carlo estimates): error bars rather than a band.
      series.errorBars = new QCPErrorBars(plot_->xAxis, series.valueAxis);
      series.errorBars->removeFromLegend();
      series.errorBars->setDataPlottable(series.legendPlottable());
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
  if (categorical_) showAsCategories();
  if (bars_) showAsBars(hints, x);
  for (const auto& series : series_)
    setSeriesVisible(series.label, !hidden_.contains(series.label));
  applyAxisScales();
  if (!userAdjustedView_) fitView();
  distinguishSeries();
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

double PlotView::valueInAxisScale(const QCPAxis* axis, double value) const {
  if (!std::isfinite(value)) return kNaN;
  if (!isLog(axis)) return value;
  return value > 0 ? std::log10(value) : kNaN;
}

void PlotView::distinguishSeries() {
  if (bars_) {  // bars stand side by side: none hides another
    for (auto& series : series_) {
      series.coincidenceRank = series.coincidenceDepth = 0;
      series.hatched = false;
    }
    return;
  }
  // Coinciding lines, per value axis (series of different axes never hide each other's meaning).
  for (QCPAxis* axis : {plot_->yAxis, plot_->yAxis2}) {
    std::vector<QVector<double>> values;
    std::vector<bool> lines;
    std::vector<Series*> members;
    for (auto& series : series_) {
      if (series.valueAxis != axis) continue;
      series.coincidenceRank = series.coincidenceDepth = 0;
      if (!series.line->visible()) continue;
      QVector<double> scaled(series.y.size());
      for (int i = 0; i < series.y.size(); ++i)
        scaled[i] = valueInAxisScale(axis, series.y[i]);
      values.push_back(scaled);
      lines.push_back(series.style != SeriesStyle::Points);
      members.push_back(&series);
    }
    const std::vector<Coincidence> found = findCoincidences(values, lines);
    for (std::size_t i = 0; i < members.size(); ++i) {
      members[i]->coincidenceRank = found[i].rank;
      members[i]->coincidenceDepth = found[i].depth;
    }
  }
  // Overlapping bands are hatched.
  for (auto& series : series_)
    series.hatched = false;
  for (int i = 0; i < series_.size(); ++i)
    for (int j = i + 1; j < series_.size(); ++j) {
      Series& a = series_[i];
      Series& b = series_[j];
      if (!a.low || !b.low || !a.line->visible() || !b.line->visible() ||
          a.valueAxis != b.valueAxis)
        continue;
      if (bandsOverlap(a.lowValues, a.highValues, b.lowValues, b.highValues))
        a.hatched = b.hatched = true;
    }
}

void PlotView::showAsCategories() {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  const double x = series_.isEmpty() || series_.front().x.isEmpty() ? kNaN : series_.front().x[0];
  for (int i = 0; i < series_.size(); ++i) {
    Series& series = series_[i];
    const double position = i + 1;
    ticker->addTick(position, series.label);
    series.x = {position};
    series.line->setData({position}, series.y.mid(0, 1), true);
    series.line->setLineStyle(QCPGraph::lsNone);
    series.style = SeriesStyle::Points;
    if (series.y.isEmpty() || !std::isfinite(series.y[0])) continue;
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(position, series.y[0]);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->setPadding(QMargins(10, 0, 0, 0));
    label->setText(QString::number(series.y[0], 'g', 4));
    label->setClipToAxisRect(true);
    valueLabels_.push_back(label);
  }
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setLabel(fullXLabel_ + " = " + number(x));
  fullXLabel_ = plot_->xAxis->label();
}

void PlotView::showAsBars(const PlotHints& hints, const QVector<double>& x) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  categoryNames_.clear();
  for (int row = 0; row < x.size(); ++row) {
    QString name = number(x[row]);
    for (const auto& [value, text] : hints.xValueNames)
      if (value == x[row]) name = QString::fromStdString(text);
    categoryNames_.push_back(name);
    ticker->addTick(row + 1, name);
  }
  plot_->xAxis->setTicker(ticker);
  layOutBars();
}

void PlotView::layOutBars() {
  // The visible series share the category: a group fills 80% of it, and each bar keeps 12% of its
  // slot as the gap to the next. A hidden series leaves the group, so no empty slot remains.
  int count = 0;
  for (const Series& series : series_)
    count += series.bars->visible() ? 1 : 0;
  const double slot = 0.8 / std::max(count, 1), width = 0.88 * slot;
  barsGroup_->clear();
  barsGroup_->setSpacingType(QCPBarsGroup::stPlotCoords);
  barsGroup_->setSpacing(slot - width);
  int index = 0;
  for (Series& series : series_) {
    series.bars->setWidth(width);
    if (!series.bars->visible()) continue;
    barsGroup_->append(series.bars);
    // The bar's centre, where QCPBarsGroup draws it (for hover and legend placement).
    const double offset = (index++ - (count - 1) / 2.0) * slot;
    for (int row = 0; row < series.x.size(); ++row)
      series.x[row] = row + 1 + offset;
  }
}

void PlotView::fitView() {
  plot_->rescaleAxes(true);
  if (categorical_) plot_->xAxis->setRange(0.4, series_.size() + 0.8);
  const double lowest = plot_->yAxis->range().lower;
  // A 4% margin keeps markers and error bars at the edges inside the axes.
  plot_->xAxis->scaleRange(1.04);
  plot_->yAxis->scaleRange(1.04);
  if (bars_) {
    plot_->xAxis->setRange(0.5, barRows_ + 0.5);
    // Bars rise from zero: no margin below it. On a log axis they rise from the decade below the
    // smallest value shown (or its error bar), not from wherever the axis range happened to end.
    if (!isLog(plot_->yAxis) && lowest >= 0) plot_->yAxis->setRangeLower(0);
    if (isLog(plot_->yAxis)) {
      double smallest = std::numeric_limits<double>::infinity();
      for (const Series& series : series_) {
        if (!series.line->visible()) continue;
        for (const QVector<double>* values : {&series.y, &series.lowValues})
          for (const double v : *values)
            if (v > 0 && std::isfinite(v)) smallest = std::min(smallest, v);
      }
      if (std::isfinite(smallest))
        plot_->yAxis->setRangeLower(std::pow(10.0, std::floor(std::log10(smallest / 1.5))));
    }
  }
  if (plot_->yAxis2->visible()) plot_->yAxis2->scaleRange(1.04);
}

void PlotView::resetView() {
  userAdjustedView_ = false;
  userLegendPosition_.reset();
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
  distinguishSeries();
  applyStyle();
  resetView();
}

void PlotView::setLogY(bool on) {
  userYLog_ = on;
  applyAxisScales();
  distinguishSeries();
  applyStyle();
  resetView();
}

void PlotView::applyAxisScales() {
  const std::pair<QCPAxis*, bool> axes[] = {{plot_->xAxis, logX() && !textTicksOnX()},
                                            {plot_->yAxis, logY()},
                                            {plot_->yAxis2, hintY2Log_}};
  for (const auto& [axis, logScale] : axes) {
    axis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (!(textTicksOnX() && axis == plot_->xAxis)) applyTickFormat(axis);
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

void PlotView::setTextPointSize(std::optional<double> points) {
  textPoints_ = points;
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::applyStyle() {
  const double base = textPoints_.value_or(font().pointSizeF());
  auto sized = [this](double points) {
    QFont f = font();
    f.setPointSizeF(points);
    return f;
  };
  const QFont labelFont = sized(presentation_ ? base + 6 : base);
  const QFont tickFont = sized(presentation_ ? base + 4 : base);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    axis->setLabelFont(labelFont);
    axis->setTickLabelFont(tickFont);
  }
  plot_->legend->setFont(tickFont);
  // Lines need a long icon to show their dashes and markers; a bar's swatch is a small box.
  const int icon = static_cast<int>(std::lround(tickFont.pointSizeF() * (bars_ ? 1.6 : 3)));
  plot_->legend->setIconSize(icon, static_cast<int>(std::lround(tickFont.pointSizeF() * 1.4)));
  QFont titleFont = sized(labelFont.pointSizeF() + 1);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  QFont markFont = sized(labelFont.pointSizeF() * 2.2);
  markFont.setBold(true);
  freshnessMark_->setFont(markFont);

  // Line widths follow the text size at paper sizes (an 8-pt figure gets ~1.2-pt lines).
  const double width = presentation_ ? 4 : textPoints_ ? std::max(0.8, *textPoints_ * 0.15) : 2;
  const double marker = presentation_ ? 8 : textPoints_ ? *textPoints_ * 0.6 : 5;
  const bool stale = freshness_ == PlotFreshness::Stale;
  int hatchIndex = 0;
  for (Series& series : series_) {
    QColor color = series.color;
    if (stale) color.setAlpha(90);  // a previous result: faded behind the mark
    const int rank = series.coincidenceRank;
    // A series others lie on is drawn wider, so its colour shows on both sides of them.
    if (series.bars) {
      // Filled in the series' colour, outlined darker; error bars dark, visible on any fill.
      series.bars->setBrush(color);
      series.bars->setPen(QPen(color.darker(150), std::max(0.8, width * 0.4)));
      series.line->setPen(Qt::NoPen);
      series.line->setScatterStyle(QCPScatterStyle());
      if (series.errorBars)
        series.errorBars->setPen(
            QPen(QColor(30, 30, 30, stale ? 90 : 255), std::max(1.0, width * 0.6)));
      continue;
    }
    QPen pen(color, width + series.coincidenceDepth * (1.2 + 0.5 * width), dashFor(rank));
    series.line->setPen(pen);
    const bool markers = series.style != SeriesStyle::Line || rank > 0;
    if (markers) {
      QCPScatterStyle scatter(markerFor(rank), color,
                              rank > 0 || categorical_ ? marker * 1.6 : marker);
      if (categorical_) scatter.setBrush(color);  // few, large, filled: one per category
      scatter.setPen(QPen(color, std::max(1.0, width * 0.6)));
      series.line->setScatterStyle(scatter);
      // Dashed twins carry a marker every few points, enough to identify them.
      const int points = series.line->dataCount();
      series.line->setScatterSkip(series.style == SeriesStyle::Line ? std::max(0, points / 12 - 1)
                                                                    : 0);
    } else {
      series.line->setScatterStyle(QCPScatterStyle());
    }
    if (series.errorBars) series.errorBars->setPen(QPen(color, std::max(1.0, width * 0.6)));
    if (series.high) {
      QColor fill = color;
      if (series.hatched) {
        // Hatching in the band's own colour over a faint tint: where bands overlap, both patterns
        // stay visible and no blended colour appears that could be read as a third series.
        fill.setAlpha(stale ? 60 : 190);
        series.high->setBrush(QBrush(fill, hatchFor(hatchIndex++)));
        QColor tint = color;
        tint.setAlpha(stale ? 8 : 18);
        series.low->setBrush(tint);
        series.low->setChannelFillGraph(series.high);
        QColor edge = color;
        edge.setAlpha(stale ? 50 : 150);
        for (QCPGraph* band : {series.low, series.high})
          band->setPen(QPen(edge, std::max(0.8, width * 0.5)));
      } else {
        fill.setAlpha(stale ? 25 : 55);
        series.high->setBrush(fill);
        series.low->setBrush(Qt::NoBrush);
        series.low->setChannelFillGraph(nullptr);
        for (QCPGraph* band : {series.low, series.high})
          band->setPen(Qt::NoPen);
      }
    }
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
             series.line, series.low, series.high, series.errorBars, series.bars})
      if (plottable) plottable->setVisible(visible);
    if (auto* item = plot_->legend->itemWithPlottable(series.legendPlottable()))
      item->setTextColor(visible ? Qt::black : Qt::gray);
  }
  if (bars_) layOutBars();
  distinguishSeries();
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setFreshness(PlotFreshness freshness, const QString& note) {
  if (freshness == freshness_ && note == freshnessNote_) return;
  freshness_ = freshness;
  freshnessNote_ = note;
  const QString mark = freshnessText();
  freshnessMark_->setText(mark);
  freshnessMark_->setVisible(!mark.isEmpty());
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PlotView::freshnessText() const {
  QString mark;
  switch (freshness_) {
    case PlotFreshness::Current:
      return {};
    case PlotFreshness::Stale:
      mark = tr("previous settings");
      break;
    case PlotFreshness::Partial:
      mark = tr("partial result");
      break;
  }
  return freshnessNote_.isEmpty() ? mark : mark + "\n" + freshnessNote_;
}

// ---- Legend ---------------------------------------------------------------------------------

void PlotView::relayout() {
  QCPLayoutGrid* layout = plot_->plotLayout();
  layout->update(QCPLayoutElement::upPreparation);
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
}

void PlotView::putLegendInside() {
  if (!legendSide_) return;
  legendSide_->take(plot_->legend);
  plot_->plotLayout()->remove(legendSide_);  // deletes it (and its fillers)
  legendSide_ = nullptr;
  plot_->plotLayout()->simplify();
  // The wrap first: rearranging (setFillOrder's second argument) lays the entries out by it.
  plot_->legend->setWrap(0);
  plot_->legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
  plot_->axisRect()->insetLayout()->addElement(plot_->legend, Qt::AlignTop | Qt::AlignRight);
}

void PlotView::putLegendOutside() {
  if (legendSide_) return;
  QCPLegend* legend = plot_->legend;
  plot_->axisRect()->insetLayout()->take(legend);
  legendSide_ = new QCPLayoutGrid;
  QCPLayoutGrid* layout = plot_->plotLayout();
  const QSize size = legend->minimumOuterSizeHint();
  const int axisRow = 1;  // below the title
  if (size.width() < 0.3 * plot_->viewport().width()) {
    // Beside the axes, top-aligned.
    layout->addElement(axisRow, 1, legendSide_);
    layout->setColumnStretchFactor(1, 0.001);
    legendSide_->addElement(0, 0, legend);
    legendSide_->addElement(1, 0, new QCPLayoutElement(plot_));
    legendSide_->setRowStretchFactor(0, 0.001);
    legendSide_->setMargins(QMargins(0, 0, 6, 0));
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
    layout->addElement(axisRow + 1, 0, legendSide_);
    layout->setRowStretchFactor(axisRow + 1, 0.001);
    legendSide_->addElement(0, 0, new QCPLayoutElement(plot_));
    legendSide_->addElement(0, 1, legend);
    legendSide_->addElement(0, 2, new QCPLayoutElement(plot_));
    legendSide_->setColumnStretchFactor(1, 0.001);
    legendSide_->setMargins(QMargins(0, 0, 0, 6));
  }
}

bool PlotView::legendInsideAxes() const {
  return legendSide_ == nullptr;
}

QRectF PlotView::legendRect() const {
  return plot_->legend->outerRect();
}

namespace {

// Text broken between words into lines no wider than `available` pixels.
QString wrapped(const QString& text, const QFont& font, int available) {
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

}  // namespace

void PlotView::fitTexts() {
  // Titles and axis labels longer than the plot (large fonts, narrow windows, paper sizes) wrap
  // between words instead of being cut off.
  const QString title =
      wrapped(fullTitle_, title_->font(), std::max(80, plot_->viewport().width() - 16));
  if (title != title_->text()) title_->setText(title);
  const QRect area = plot_->axisRect()->rect();
  const std::pair<QCPAxis*, const QString*> labels[] = {
      {plot_->xAxis, &fullXLabel_}, {plot_->yAxis, &fullYLabel_}, {plot_->yAxis2, &fullY2Label_}};
  for (const auto& [axis, full] : labels) {
    const int length = axis == plot_->xAxis ? area.width() : area.height();
    const QString label = wrapped(*full, axis->labelFont(), std::max(80, length));
    if (label != axis->label()) axis->setLabel(label);
  }
}

void PlotView::fitBars() {
  // Category names wider than their category are slanted rather than run into each other, and
  // whiskers stay narrower than the bars.
  QCPAxis* x = plot_->xAxis;
  const double category = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
  const QFontMetrics metrics(x->tickLabelFont());
  int widest = 0;
  for (const QString& name : std::as_const(categoryNames_))
    widest = std::max(widest, metrics.horizontalAdvance(name));
  const double rotation = bars_ && widest + metrics.averageCharWidth() > category ? -35 : 0;
  if (rotation != x->tickLabelRotation()) {
    x->setTickLabelRotation(rotation);
    relayout();
  }
  for (auto& series : series_) {
    if (!series.bars || !series.errorBars) continue;
    const double bar = std::abs(x->coordToPixel(series.bars->width()) - x->coordToPixel(0));
    series.errorBars->setWhiskerWidth(std::clamp(0.5 * bar, 2.0, 9.0));
  }
}

void PlotView::placeLegend() {
  if (placingLegend_) return;
  placingLegend_ = true;
  fitTexts();
  fitBars();
  QCPLegend* legend = plot_->legend;
  bool anyEntry = false;
  for (const auto& series : series_)
    anyEntry = anyEntry || legend->itemWithPlottable(series.legendPlottable());
  legend->setVisible(anyEntry && !categorical_);  // categories carry their names on the axis
  anyEntry = anyEntry && !categorical_;
  if (anyEntry) {
    // Every decision is taken with the legend inside, on the full-size axis rect.
    if (legendSide_) {
      putLegendInside();
      relayout();
    }
    QCPAxisRect* axisRect = plot_->axisRect();
    QCPLayoutInset* inset = axisRect->insetLayout();
    int index = 0;
    while (index < inset->elementCount() && inset->elementAt(index) != legend)
      ++index;
    const QRectF area = axisRect->rect();
    const QSizeF size = legend->minimumOuterSizeHint();
    std::optional<QPointF> spot;
    if (userLegendPosition_) {
      spot = QPointF(area.left() + userLegendPosition_->x() * area.width(),
                     area.top() + userLegendPosition_->y() * area.height());
    } else {
      DataOccupancy occupancy(area);
      for (const auto& series : series_) {
        if (!series.line->visible()) continue;
        const QCPAxis* valueAxis = series.valueAxis;
        if (series.bars) {
          // Each bar from zero to its value, and its error bar.
          const double halfWidth = std::abs(plot_->xAxis->coordToPixel(series.bars->width()) -
                                            plot_->xAxis->coordToPixel(0)) /
                                   2;
          const double base = bandEdgePixel(valueAxis, 0);
          for (int i = 0; i < series.x.size() && i < series.y.size(); ++i) {
            const double px = toPixel(plot_->xAxis, series.x[i]);
            const double py = toPixel(valueAxis, series.y[i]);
            if (std::isnan(px) || std::isnan(py)) continue;
            occupancy.addVerticalSpan(px, base, py, halfWidth);
            if (!series.lowValues.isEmpty())
              occupancy.addVerticalSpan(px, bandEdgePixel(valueAxis, series.lowValues[i]),
                                        bandEdgePixel(valueAxis, series.highValues[i]), 5);
          }
          continue;
        }
        QVector<QPointF> points;
        QVector<double> xs, lows, highs;
        for (int i = 0; i < series.x.size(); ++i) {
          const double px = toPixel(plot_->xAxis, series.x[i]);
          const double py = i < series.y.size() ? toPixel(valueAxis, series.y[i]) : kNaN;
          if (!std::isnan(px) && !std::isnan(py)) points.push_back(QPointF(px, py));
          if (series.lowValues.isEmpty()) continue;
          const double low = bandEdgePixel(valueAxis, series.lowValues[i]);
          const double high = bandEdgePixel(valueAxis, series.highValues[i]);
          if (series.errorBars) {
            if (!std::isnan(py)) occupancy.addVerticalSpan(px, low, high, 4);
          } else {
            xs.push_back(px);
            lows.push_back(low);
            highs.push_back(high);
          }
        }
        const double halfWidth = series.line->pen().widthF() / 2 + 2;
        if (series.line->lineStyle() != QCPGraph::lsNone) occupancy.addPolyline(points, halfWidth);
        if (series.line->scatterStyle().shape() != QCPScatterStyle::ssNone)
          for (const QPointF& p : points)
            occupancy.addMarker(p, series.line->scatterStyle().size() / 2 + 2);
        if (!xs.isEmpty()) occupancy.addBand(xs, lows, highs);
      }
      spot = emptiestLegendSpot(occupancy, size);
    }
    if (spot) {
      // Kept whole inside the axes.
      const double left = std::clamp(spot->x(), area.left(), area.right() - size.width());
      const double top = std::clamp(spot->y(), area.top(), area.bottom() - size.height());
      inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
      inset->setInsetRect(
          index, QRectF((left - area.left()) / area.width(), (top - area.top()) / area.height(),
                        size.width() / area.width(), size.height() / area.height()));
    } else {
      putLegendOutside();
      // The axes lost the legend's room: their labels wrap to the new size.
      relayout();
      fitTexts();
    }
  }
  relayout();
  placingLegend_ = false;
}

void PlotView::moveLegendTo(const QPointF& topLeft) {
  const QRectF area = plot_->axisRect()->rect();
  if (area.width() <= 0 || area.height() <= 0) return;
  userLegendPosition_ = QPointF((topLeft.x() - area.left()) / area.width(),
                                (topLeft.y() - area.top()) / area.height());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotView::onLegend(const QPointF& position) const {
  return plot_->legend->visible() && plot_->legend->outerRect().contains(position.toPoint());
}

// ---- View state -----------------------------------------------------------------------------

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
  distinguishSeries();
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

// ---- Pointer --------------------------------------------------------------------------------

QString PlotView::describePointNear(const QPointF& position) const {
  double best = kHoverRadiusPixels;
  const Series* bestSeries = nullptr;
  int bestIndex = -1;
  for (const auto& series : series_) {
    if (!series.line->visible()) continue;
    for (int i = 0; i < series.x.size() && i < series.y.size(); ++i) {
      const double px = toPixel(plot_->xAxis, series.x[i]);
      const double py = toPixel(series.valueAxis, series.y[i]);
      if (std::isnan(px) || std::isnan(py)) continue;
      const double distance = std::hypot(px - position.x(), py - position.y());
      if (distance < best) {
        best = distance;
        bestSeries = &series;
        bestIndex = i;
      }
    }
  }
  if (!bestSeries) return {};
  QString text = "<b>" + bestSeries->label.toHtmlEscaped() + "</b><br>";
  if (bars_)
    text +=
        xLabel_.toHtmlEscaped() + ": " + categoryNames_.value(bestIndex).toHtmlEscaped() + "<br>";
  else if (!categorical_)
    text += xLabel_.toHtmlEscaped() + " = " + number(bestSeries->x[bestIndex]) + "<br>";
  text += "y = " + number(bestSeries->y[bestIndex]);
  if (!bestSeries->lowValues.isEmpty())
    text += "<br>band: [" + number(bestSeries->lowValues[bestIndex]) + ", " +
            number(bestSeries->highValues[bestIndex]) + "]";
  if (!bestSeries->warning.isEmpty()) text += "<br>⚠ " + bestSeries->warning.toHtmlEscaped();
  return text;
}

void PlotView::onMousePress(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !onLegend(event->position())) return;
  // Pressing on the legend drags the legend, not the view.
  legendDragOffset_ = event->position() - legendRect().topLeft();
  legendDragged_ = false;
  plot_->setInteraction(QCP::iRangeDrag, false);
  pressPosition_ = event->position();
}

void PlotView::onMouseRelease(QMouseEvent*) {
  if (!legendDragOffset_) return;
  legendDragOffset_.reset();
  plot_->setInteraction(QCP::iRangeDrag, true);
}

void PlotView::onMouseMove(QMouseEvent* event) {
  if (legendDragOffset_) {
    if (!legendDragged_ &&
        (event->position() - pressPosition_).manhattanLength() <= kClickSlopPixels)
      return;
    legendDragged_ = true;
    if (!legendInsideAxes()) {
      // Dragged out of its place beside the axes: into the axes, under the pointer.
      putLegendInside();
      relayout();
    }
    moveLegendTo(event->position() - *legendDragOffset_);
    return;
  }
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

// ---- Tests ----------------------------------------------------------------------------------

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
QCPGraph* PlotView::seriesGraph(int series) const {
  return series_.at(series).line;
}
QCPBars* PlotView::seriesBars(int series) const {
  return series_.at(series).bars;
}

QVector<QPointF> PlotView::visibleDataPixels() const {
  QVector<QPointF> pixels;
  for (const auto& series : series_) {
    if (!series.line->visible()) continue;
    for (int i = 0; i < series.x.size(); ++i) {
      const double px = toPixel(plot_->xAxis, series.x[i]);
      if (std::isnan(px)) continue;
      for (const QVector<double>* values : {&series.y, &series.lowValues, &series.highValues}) {
        if (i >= values->size()) continue;
        const double py = toPixel(series.valueAxis, (*values)[i]);
        if (!std::isnan(py)) pixels.push_back(QPointF(px, py));
      }
    }
  }
  return pixels;
}

}  // namespace rfscope::ui
