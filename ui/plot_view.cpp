#include "ui/plot_view.h"

#include <qcustomplot.h>

#include <QAction>
#include <QMenu>
#include <QVBoxLayout>
#include <QtMath>
#include <cmath>
#include <tuple>

#include "ui/axis_range_dialog.h"
#include "ui/axis_scales.h"
#include "ui/legend_placement.h"
#include "ui/plot_interaction.h"
#include "ui/plot_kinds/plot_kind_registry.h"
#include "ui/plot_legend_layout.h"

namespace rfscope::ui {

PlotView::PlotView(QWidget* parent)
    : QWidget(parent),
      plot_(new QCustomPlot(this)),
      resetViewAction_(new QAction(tr("&Reset View"), this)),
      axisRangesAction_(new QAction(tr("Set &Axis Ranges…"), this)),
      legend_(std::make_unique<PlotLegendLayout>(plot_)),
      kind_(makePlotRenderer(Table{})) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 235));
  plot_->legend->setBorderPen(QPen(QColor(150, 150, 150)));
  plot_->plotLayout()->insertRow(0);
  title_ =
      new QCPTextElement(plot_, "", QFont(font().family(), font().pointSize() + 1, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  // The stale/partial mark: over the data on a translucent plate, so that opaque bars cannot hide
  // it (behind them it vanished) while the data stay visible through it.
  plot_->addLayer("marks", plot_->layer("main"), QCustomPlot::limAbove);
  freshnessMark_ = new QCPItemText(plot_);
  freshnessMark_->setLayer("marks");
  freshnessMark_->setClipToAxisRect(true);
  freshnessMark_->setBrush(QColor(255, 255, 255, 185));
  freshnessMark_->setPadding(QMargins(10, 4, 10, 4));
  freshnessMark_->position->setType(QCPItemPosition::ptAxisRectRatio);
  freshnessMark_->position->setCoords(0.5, 0.5);
  freshnessMark_->setPositionAlignment(Qt::AlignCenter);
  freshnessMark_->setTextAlignment(Qt::AlignCenter);
  freshnessMark_->setColor(QColor(110, 110, 110, 210));
  freshnessMark_->setVisible(false);
  setMinimumSize(480, 320);

  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    const auto format = [this, axis]() {
      if (!(namesOnX() && axis == plot_->xAxis)) applyTickFormat(axis);
    };
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, format);
    connect(axis, &QCPAxis::scaleTypeChanged, this, format);
    applyTickFormat(axis);
  }
  // The screen's spacing, for going back to it after an export at paper size.
  screenSpacing_.legendMargins = plot_->legend->margins();
  screenSpacing_.legendRowSpacing = plot_->legend->rowSpacing();
  screenSpacing_.legendColumnSpacing = plot_->legend->columnSpacing();
  screenSpacing_.iconTextPadding = plot_->legend->iconTextPadding();
  screenSpacing_.layoutRowSpacing = plot_->plotLayout()->rowSpacing();
  screenSpacing_.layoutColumnSpacing = plot_->plotLayout()->columnSpacing();
  screenSpacing_.axisRectMinimumMargins = plot_->axisRect()->minimumMargins();
  screenSpacing_.axisPadding = plot_->xAxis->padding();
  screenSpacing_.tickLabelPadding = plot_->xAxis->tickLabelPadding();
  screenSpacing_.labelPadding = plot_->xAxis->labelPadding();
  connect(plot_, &QCustomPlot::afterLayout, this, &PlotView::placeLegend);
  interaction_ = new PlotInteraction(
      plot_, *legend_, [this](const QPointF& position) { return describePointNear(position); });
  connect(interaction_, &PlotInteraction::viewAdjusted, this,
          [this]() { userAdjustedView_ = true; });
  connect(interaction_, &PlotInteraction::resetRequested, this, &PlotView::resetView);
  resetViewAction_->setShortcut(QKeySequence(tr("Ctrl+0")));
  resetViewAction_->setToolTip(tr("Fit all data, forget the zoom and the legend's position"));
  axisRangesAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
  axisRangesAction_->setToolTip(tr("Type the x and y axes' ranges"));
  connect(resetViewAction_, &QAction::triggered, this, &PlotView::resetView);
  connect(axisRangesAction_, &QAction::triggered, this, &PlotView::editAxisRanges);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& position) {
    QMenu* menu = makeContextMenu();
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(plot_->mapToGlobal(position));
  });
  connect(plot_, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
            if (!entry) return;
            for (const auto& series : series_)
              if (series.legendPlottable() == entry->plottable())
                setSeriesVisible(series.label, hidden_.contains(series.label));
          });
}

PlotView::~PlotView() = default;

void PlotView::removeSeries() {
  pinned_.remove(plot_);
  kind_->remove(plot_);
  for (auto& series : series_) {
    if (series.errorBars) plot_->removePlottable(series.errorBars);
    if (series.body) plot_->removePlottable(series.body);
  }
  plot_->clearGraphs();
  series_.clear();
}

void PlotView::clear() {
  removeSeries();
  hasTable_ = false;
  pins_.clear();
  fullTitle_.clear();
  title_->setText("");
  userAdjustedView_ = false;
  legend_->forgetUserPosition();
  setFreshness(PlotFreshness::Current);
  plot_->replot();
}

void PlotView::setTable(const Table& table) {
  removeSeries();
  kind_ = makePlotRenderer(table);
  const PlotHints& hints = table.hints;
  const Column* xColumn = table.column(hints.xColumn);
  fullTitle_ = QString::fromStdString(hints.title);
  title_->setText(fullTitle_);
  xLabel_ = QString::fromStdString(hints.xLabel);
  fullYLabel_ = QString::fromStdString(hints.yLabel);
  fullY2Label_ = QString::fromStdString(hints.y2Label);
  plot_->yAxis->setLabel(fullYLabel_);
  plot_->xAxis->grid()->setVisible(true);  // a kind may hide it
  // The axes follow the grid: a log-spaced x column is drawn on a log axis unless the user chose.
  hintXLog_ = !namesOnX() && (hints.xLog || (xColumn && looksLogSpaced(xColumn->values)));
  hintYLog_ = hints.yLog;
  hintY2Log_ = hints.y2Log;
  bool secondary = false;
  for (const SeriesHint& hint : hints.series)
    secondary = secondary || (hint.secondaryAxis && !hints.y2Label.empty());
  plot_->yAxis2->setVisible(secondary);
  plot_->yAxis2->setLabel(fullY2Label_);
  series_ = kind_->build(table, plot_, secondary);
  hasTable_ = true;
  buildPinned();
  fullXLabel_ = kind_->xAxisLabel(xLabel_);
  plot_->xAxis->setLabel(fullXLabel_);
  shortXLabel_ = hints.xShortLabel.empty()
                     ? QString()
                     : kind_->xAxisLabel(QString::fromStdString(hints.xShortLabel));
  shortYLabel_ = QString::fromStdString(hints.yShortLabel);
  shortY2Label_ = QString::fromStdString(hints.y2ShortLabel);
  for (const auto& series : series_) {
    if (figure_.paper) series.legendPlottable()->setName(series.legendText(true));
    setSeriesVisible(series.label, !hidden_.contains(series.label));
  }
  applyAxisScales();
  if (!userAdjustedView_) fitView();
  distinguishSeries();
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::buildPinned() {
  pinned_.remove(plot_);
  if (hasTable_ && !namesOnX()) pinned_.build(plot_, pins_, plot_->yAxis2->visible());
}

void PlotView::setPinnedCurves(const QList<PinnedCurves>& pins) {
  pins_ = pins;
  buildPinned();
  applyStyle();
  if (!userAdjustedView_) fitView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QList<PlotSeries> PlotView::seriesWithPinned() const {
  return series_ + pinned_.series();
}

bool PlotView::namesOnX() const {
  return kind_->namesOnX();
}

void PlotView::distinguishSeries() {
  kind_->distinguish(plot_, series_);
}

void PlotView::fitView() {
  kind_->fit(plot_, series_);
}

void PlotView::resetView() {
  userAdjustedView_ = false;
  legend_->forgetUserPosition();
  fitView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emit viewChanged();
}

AxisRanges PlotView::axisRanges() const {
  const QCPRange x = plot_->xAxis->range(), y = plot_->yAxis->range();
  return {x.lower, x.upper, y.lower, y.upper};
}

void PlotView::setAxisRanges(const AxisRanges& ranges) {
  plot_->xAxis->setRange(ranges.xLower, ranges.xUpper);
  plot_->yAxis->setRange(ranges.yLower, ranges.yUpper);
  userAdjustedView_ = true;  // kept through streamed updates, as a zoom is
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emit viewChanged();
}

AxisRangeDialog* PlotView::editAxisRanges() {
  auto* dialog =
      new AxisRangeDialog(axisRanges(), isLogAxis(plot_->xAxis), isLogAxis(plot_->yAxis), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog]() {
    const AxisRanges ranges = dialog->ranges();
    // The scales may have changed under the open dialog (Ctrl+L): check against the current ones.
    if (axisRangesProblem(ranges, isLogAxis(plot_->xAxis), isLogAxis(plot_->yAxis)).isEmpty())
      setAxisRanges(ranges);
  });
  dialog->open();
  return dialog;
}

QMenu* PlotView::makeContextMenu() {
  auto* menu = new QMenu(this);
  menu->addAction(axisRangesAction_);
  menu->addAction(resetViewAction_);
  return menu;
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
  const std::pair<QCPAxis*, bool> axes[] = {
      {plot_->xAxis, logX() && !namesOnX()}, {plot_->yAxis, logY()}, {plot_->yAxis2, hintY2Log_}};
  for (const auto& [axis, logScale] : axes) {
    axis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // A log axis keeps the range it had, sign included (QCustomPlot draws all-negative log
    // ranges), and fits only data of that range's sign: a range of -125…-25 left by the
    // previous table's log-variances hid the new positive data, and fitting again found none.
    // Fitting starts from a positive range.
    if (logScale && !(axis->range().lower > 0)) axis->setRange(1, 10);
    if (!(namesOnX() && axis == plot_->xAxis)) applyTickFormat(axis);
  }
}

void PlotView::setBandsShown(bool on) {
  if (on == bandsShown_) return;
  bandsShown_ = on;
  for (const auto& series : series_)
    setSeriesVisible(series.label, !hidden_.contains(series.label));
  if (!userAdjustedView_) fitView();
  placeLegend();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setCrosshair(bool on) {
  interaction_->setCrosshair(on);
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

void PlotView::setFigureLayout(const FigureLayout& layout) {
  figure_ = layout;
  showTitle(layout.title);
  for (const auto& series : series_)
    series.legendPlottable()->setName(series.legendText(layout.paper));
  legend_->setRequest(layout.legend, layout.legendColumns, layout.paper);
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::showTitle(bool on) {
  QCPLayoutGrid* layout = plot_->plotLayout();
  const bool shown = title_->layout() == layout;
  title_->setVisible(on);
  if (on == shown) return;
  if (on) {
    layout->insertRow(0);
    layout->addElement(0, 0, title_);
  } else {
    layout->take(title_);
    layout->simplify();
  }
}

void PlotView::applySpacing() {
  QCPLegend* legend = plot_->legend;
  QCPAxisRect* axisRect = plot_->axisRect();
  const Spacing& screen = screenSpacing_;
  if (!figure_.paper || !textPoints_) {
    legend->setMargins(screen.legendMargins);
    legend->setRowSpacing(screen.legendRowSpacing);
    legend->setColumnSpacing(screen.legendColumnSpacing);
    legend->setIconTextPadding(screen.iconTextPadding);
    plot_->plotLayout()->setRowSpacing(screen.layoutRowSpacing);
    plot_->plotLayout()->setColumnSpacing(screen.layoutColumnSpacing);
    axisRect->setMinimumMargins(screen.axisRectMinimumMargins);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
      axis->setPadding(screen.axisPadding);
      axis->setTickLabelPadding(screen.tickLabelPadding);
      axis->setLabelPadding(screen.labelPadding);
    }
    return;
  }
  // At paper sizes every gap is a fraction of the text's height (em): the screen's gaps, in
  // pixels, would take a fifth of a one-column figure.
  const double em = *textPoints_ * 96 / 72;
  const auto part = [em](double fraction) { return static_cast<int>(std::lround(fraction * em)); };
  legend->setMargins(QMargins(part(0.4), part(0.2), part(0.4), part(0.2)));
  legend->setRowSpacing(0);
  legend->setColumnSpacing(part(0.8));
  legend->setIconTextPadding(part(0.4));
  plot_->plotLayout()->setRowSpacing(part(0.3));
  plot_->plotLayout()->setColumnSpacing(part(0.3));
  axisRect->setMinimumMargins(QMargins(part(0.3), part(0.3), part(0.3), part(0.3)));
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    axis->setPadding(part(0.2));
    axis->setTickLabelPadding(part(0.25));
    axis->setLabelPadding(part(0.25));
  }
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
  const int icon = static_cast<int>(std::lround(tickFont.pointSizeF() * kind_->legendIconWidth()));
  plot_->legend->setIconSize(icon, static_cast<int>(std::lround(tickFont.pointSizeF() * 1.4)));
  QFont titleFont = sized(labelFont.pointSizeF() + 1);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  markFont_ = sized(labelFont.pointSizeF() * 2.2);
  markFont_.setBold(true);
  applySpacing();
  fitFreshnessMark();

  // Line widths follow the text size at paper sizes (an 8-pt figure gets ~1.2-pt lines).
  PlotStyle style;
  style.lineWidth = presentation_ ? 4 : textPoints_ ? std::max(0.8, *textPoints_ * 0.15) : 2;
  style.markerSize = presentation_ ? 8 : textPoints_ ? *textPoints_ * 0.6 : 5;
  style.stale = freshness_ == PlotFreshness::Stale;
  style.textFont = tickFont;
  style.paper = figure_.paper;
  kind_->style(series_, style);
  pinned_.style(style);
}

void PlotView::setSeriesVisible(const QString& label, bool visible) {
  if (visible)
    hidden_.remove(label);
  else
    hidden_.insert(label);
  for (auto& series : series_) {
    if (series.label != label) continue;
    for (QCPAbstractPlottable* plottable : series.plottables()) {
      const bool band = plottable == series.low || plottable == series.high;
      plottable->setVisible(visible && (bandsShown_ || !band));
    }
    if (auto* item = plot_->legend->itemWithPlottable(series.legendPlottable()))
      item->setTextColor(visible ? Qt::black : Qt::gray);
  }
  kind_->visibilityChanged(series_);
  distinguishSeries();
  applyStyle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setFreshness(PlotFreshness freshness, const QString& note) {
  if (freshness == freshness_ && note == freshnessNote_) return;
  freshness_ = freshness;
  freshnessNote_ = note;
  freshnessMark_->setVisible(!freshnessText().isEmpty() &&
                             !(exporting_ && freshness_ == PlotFreshness::Saved));
  applyStyle();  // fits the mark's text
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setExporting(bool on) {
  exporting_ = on;
  freshnessMark_->setVisible(!freshnessText().isEmpty() &&
                             !(exporting_ && freshness_ == PlotFreshness::Saved));
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
    case PlotFreshness::Saved:
      mark = tr("saved result");
      break;
  }
  return freshnessNote_.isEmpty() ? mark : mark + "\n" + freshnessNote_;
}

// ---- Layout ---------------------------------------------------------------------------------

void PlotView::fitFreshnessMark() {
  const QString mark = freshnessText();
  if (mark.isEmpty()) return;
  // The whole mark inside the axes: the note wrapped to their width, and the font made smaller
  // (down to a readable minimum) until it fits — a narrow plot cut the large text off.
  const QRect area = plot_->axisRect()->rect();
  const QMargins padding = freshnessMark_->padding();
  const int width =
      std::max(60, static_cast<int>(area.width() * 0.9) - padding.left() - padding.right());
  const int height =
      std::max(30, static_cast<int>(area.height() * 0.9) - padding.top() - padding.bottom());
  constexpr double kSmallestPoints = 7;
  // The text at the largest size up to the mark's that fits; false if none does.
  const auto fit = [&](const QString& text, QFont& font, QString& shown) {
    for (font = markFont_;;
         font.setPointSizeF(std::max(kSmallestPoints, font.pointSizeF() * 0.85))) {
      QStringList lines;
      for (const QString& line : text.split('\n'))
        lines << wrapText(line, font, width);
      shown = lines.join('\n');
      const QRect box =
          QFontMetrics(font).boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignCenter, shown);
      if (box.width() <= width && box.height() <= height) return true;
      if (font.pointSizeF() <= kSmallestPoints) return false;
    }
  };
  QFont font;
  QString shown;
  // Where the whole mark cannot fit, its first line ("previous settings") alone.
  if (!fit(mark, font, shown)) fit(mark.section('\n', 0, 0), font, shown);
  if (font != freshnessMark_->font()) freshnessMark_->setFont(font);
  if (shown != freshnessMark_->text()) freshnessMark_->setText(shown);
}

QRectF PlotView::freshnessMarkRect() const {
  if (!freshnessMark_->visible()) return {};
  const QPointF centre = freshnessMark_->position->pixelPosition();
  const QRect box =
      QFontMetrics(freshnessMark_->font())
          .boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignCenter, freshnessMark_->text())
          .marginsAdded(freshnessMark_->padding());
  return QRectF(centre.x() - box.width() / 2.0, centre.y() - box.height() / 2.0, box.width(),
                box.height());
}

bool PlotView::freshnessMarkAboveData() const {
  const QCPLayer* markLayer = freshnessMark_->layer();
  for (int i = 0; i < plot_->plottableCount(); ++i)
    if (plot_->plottable(i)->layer()->index() >= markLayer->index()) return false;
  return true;
}

bool PlotView::fitTexts() {
  // Titles and axis labels longer than the plot (large fonts, narrow windows, paper sizes) wrap
  // between words instead of being cut off. At paper sizes the axes carry their short labels.
  const QString title =
      wrapText(fullTitle_, title_->font(), std::max(80, plot_->viewport().width() - 16));
  bool changed = title != title_->text() && title_->visible();
  if (title != title_->text()) title_->setText(title);
  const QRect area = plot_->axisRect()->rect();
  const std::tuple<QCPAxis*, const QString*, const QString*> labels[] = {
      {plot_->xAxis, &fullXLabel_, &shortXLabel_},
      {plot_->yAxis, &fullYLabel_, &shortYLabel_},
      {plot_->yAxis2, &fullY2Label_, &shortY2Label_}};
  for (const auto& [axis, full, brief] : labels) {
    const int length = axis == plot_->xAxis ? area.width() : area.height();
    const QString& text = figure_.paper && !brief->isEmpty() ? *brief : *full;
    const QString label =
        wrapText(text, axis->labelFont(), std::max(figure_.paper ? 40 : 80, length));
    if (label == axis->label()) continue;
    axis->setLabel(label);
    changed = changed || axis->visible();
  }
  return changed;
}

void PlotView::fitTickLabelsOnPage() {
  if (!figure_.paper || !textPoints_) return;
  // A tick label at an end of an axis reaches past the axis rect by half its size (a slanted one
  // by more): the axis rect's margins make room for it, so that it stays on the page. The
  // margins on the sides of the tick labels are the axes' own.
  const QRect axes = plot_->axisRect()->rect();
  const double em = *textPoints_ * 96 / 72;
  const int base = static_cast<int>(std::lround(0.3 * em));
  int left = 0, right = 0, top = 0, bottom = 0;  // how far past the axis rect labels reach
  const auto extent = [](const QCPAxis* axis, int i) {
    return QFontMetrics(axis->tickLabelFont())
        .boundingRect(0, 0, 0, 0, Qt::TextDontClip, axis->tickVectorLabels().value(i))
        .size();
  };
  const QCPAxis* x = plot_->xAxis;
  if (x->visible() && x->tickLabels()) {
    const double angle = qDegreesToRadians(std::abs(x->tickLabelRotation()));
    for (int i = 0; i < x->tickVector().size(); ++i) {
      if (!x->range().contains(x->tickVector()[i])) continue;
      const double at = x->coordToPixel(x->tickVector()[i]);
      const QSize size = extent(x, i);
      const double along = size.width() * std::cos(angle), across = size.height() * std::sin(angle);
      double from = at - size.width() / 2.0, to = at + size.width() / 2.0;
      if (x->tickLabelRotation() < 0) {  // slanted up to the right, ending at the tick
        from = at - along - across / 2;
        to = at + across / 2;
      } else if (x->tickLabelRotation() > 0) {  // slanted down to the right, from the tick
        from = at - across / 2;
        to = at + along + across / 2;
      }
      left = std::max(left, static_cast<int>(std::ceil(axes.left() - from)));
      right = std::max(right, static_cast<int>(std::ceil(to - axes.right())));
    }
  }
  for (const QCPAxis* y : {plot_->yAxis, plot_->yAxis2}) {
    if (!y->visible() || !y->tickLabels()) continue;
    for (int i = 0; i < y->tickVector().size(); ++i) {
      if (!y->range().contains(y->tickVector()[i])) continue;
      const double at = y->coordToPixel(y->tickVector()[i]);
      const double half = extent(y, i).height() / 2.0;
      top = std::max(top, static_cast<int>(std::ceil(axes.top() - (at - half))));
      bottom = std::max(bottom, static_cast<int>(std::ceil(at + half - axes.bottom())));
    }
  }
  const QMargins wanted(std::max(base, left + 1), std::max(base, top + 1),
                        std::max(base, right + 1), std::max(base, bottom + 1));
  if (wanted == plot_->axisRect()->minimumMargins()) return;
  plot_->axisRect()->setMinimumMargins(wanted);
  relayout(plot_);
}

void PlotView::placeLegend() {
  if (placingLegend_) return;
  placingLegend_ = true;
  // The layout was computed with the labels as they were: lay it out again with the ones that fit
  // (the short ones when an export at paper size has just begun), until they stay.
  for (int round = 0; round < 3 && fitTexts(); ++round)
    relayout(plot_);
  kind_->fitToLayout(plot_, series_);
  fitTickLabelsOnPage();
  bool anyEntry = false;
  for (const auto& series : series_)
    anyEntry = anyEntry || plot_->legend->itemWithPlottable(series.legendPlottable());
  anyEntry = anyEntry && kind_->legendShown() && legend_->placement() != LegendPlacement::None;
  plot_->legend->setVisible(anyEntry);
  const auto markData = [this](DataOccupancy& occupancy) {
    for (const auto& series : seriesWithPinned())
      if (series.line->visible()) kind_->addToOccupancy(occupancy, series, plot_->xAxis);
    kind_->addItemsToOccupancy(occupancy);
  };
  if (!anyEntry) {
    legend_->putAway();
  } else if (legend_->place(markData)) {
    // The axes lost the legend's room: their labels wrap to the new size.
    relayout(plot_);
    fitTexts();
    fitTickLabelsOnPage();
  }
  relayout(plot_);
  fitFreshnessMark();  // in the axes as they are now
  placingLegend_ = false;
}

void PlotView::moveLegendTo(const QPointF& topLeft) {
  legend_->moveTo(topLeft);
}

bool PlotView::legendInsideAxes() const {
  return legend_->inside();
}

QRectF PlotView::legendRect() const {
  return legend_->rect();
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

QString PlotView::describePointNear(const QPointF& position) const {
  return describeNearestPoint(seriesWithPinned(), *kind_, plot_->xAxis, xLabel_, position);
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
  return qobject_cast<QCPBars*>(series_.at(series).body);
}
int PlotView::pinnedSeriesCount() const {
  return static_cast<int>(pinned_.series().size());
}
QString PlotView::pinnedSeriesName(int series) const {
  return pinned_.series().at(series).label;
}
QCPGraph* PlotView::pinnedGraph(int series) const {
  return pinned_.series().at(series).line;
}
QCPBarsGroup* PlotView::barsGroup() const {
  return plot_->findChild<QCPBarsGroup*>();
}

int PlotView::dataCellsUnderLegend() const {
  if (!plot_->legend->visible() || !legend_->inside()) return 0;
  DataOccupancy occupancy(plot_->axisRect()->rect());
  for (const auto& series : series_)
    if (series.line->visible()) kind_->addToOccupancy(occupancy, series, plot_->xAxis);
  return occupancy.occupiedCells(legend_->rect());
}

QVector<QPointF> PlotView::visibleDataPixels() const {
  QVector<QPointF> pixels;
  for (const auto& series : series_)
    if (series.line->visible()) pixels += dataPixels(series, plot_->xAxis);
  return pixels;
}

}  // namespace rfscope::ui
