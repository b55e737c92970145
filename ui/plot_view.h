#pragma once
// A generic plot of any experiment Table, driven only by the table's plot hints: one line per
// series, a band where the series names low/high columns, an optional secondary y axis; or, when
// the hints ask for bars, one group of bars per row (a category named on the x axis) with error
// bars.
// Interaction: drag to pan, wheel to zoom, click a legend entry to hide/show its series, drag the
// legend to move it, hover for exact values, optional crosshair, log/linear axes. The user's zoom
// survives streamed updates until the view is reset.
//
// The plot keeps its data readable on its own: the legend goes where it covers no data (outside
// the axes when no such place exists), a log-spaced grid gets a log axis, series that coincide get
// distinct dashes and markers, overlapping bands are hatched, and a result that no longer matches
// the settings (stale) or was cut short (partial) is marked as such.

#include <QSet>
#include <QWidget>
#include <optional>

#include "core/experiments/table.h"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPBars;
class QCPBarsGroup;
class QCPErrorBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPLayoutGrid;
class QCPTextElement;
class QMouseEvent;

namespace rfscope::ui {

// What a session remembers of the view.
struct PlotViewState {
  std::optional<bool> xLog;  // unset: follow the table's hint
  std::optional<bool> yLog;
  std::optional<std::pair<double, double>> xRange;  // unset: fit the data
  std::optional<std::pair<double, double>> yRange;
  QSet<QString> hiddenSeries;  // series labels
};

// Whether the plotted table belongs to the current settings.
enum class PlotFreshness {
  Current,  // the result of the settings shown
  Stale,    // the settings changed (or are invalid) and this is the previous result
  Partial,  // an incomplete result: still running, or cancelled before the end
};

class PlotView : public QWidget {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);

  void setTable(const Table& table);
  void clear();
  QCustomPlot* plot() const { return plot_; }

  void resetView();  // fit all data, forget the user's zoom and legend position
  void setLogX(bool on);
  void setLogY(bool on);
  bool logX() const;
  bool logY() const;
  void setCrosshair(bool on);
  void setPresentationMode(bool on);  // thicker lines, larger fonts
  // Text size of every label in points (tick labels and legend; titles a little larger); unset:
  // the widget's font. Exports at a paper size set it; line widths scale with it.
  void setTextPointSize(std::optional<double> points);
  void setSeriesVisible(const QString& label, bool visible);

  // Marks the plot as stale or partial (note: the reason, shown under the mark), or current.
  void setFreshness(PlotFreshness freshness, const QString& note = {});
  PlotFreshness freshness() const { return freshness_; }
  QString freshnessText() const;  // the mark as shown, empty when current

  // Moves the legend inside the axes with its top-left corner at a widget position (as dragging
  // does); it stays there until resetView() or another experiment.
  void moveLegendTo(const QPointF& topLeft);
  QRectF legendRect() const;  // widget pixels, after the last layout
  bool legendInsideAxes() const;

  PlotViewState viewState() const;
  void setViewState(const PlotViewState& state);

  // Tooltip text for the data point nearest to a widget position (empty if none near).
  QString describePointNear(const QPointF& position) const;

  // For tests.
  int seriesCount() const;
  int seriesPointCount(int series) const;
  QString seriesName(int series) const;
  bool seriesVisible(int series) const;
  QCPGraph* seriesGraph(int series) const;
  QCPBars* seriesBars(int series) const;  // null unless the table is drawn as bars
  QCPBarsGroup* barsGroup() const { return barsGroup_; }
  // Widget pixel positions of every visible data point (lines, markers, band edges).
  QVector<QPointF> visibleDataPixels() const;

 signals:
  void viewChanged();

 private:
  struct Series {
    QString label;    // identity (hide/show, sessions)
    QString warning;  // shown in the tooltip; the legend entry carries only ⚠
    SeriesStyle style = SeriesStyle::Line;
    QColor color;
    QCPAxis* valueAxis = nullptr;
    QCPGraph* line = nullptr;
    QCPGraph* low = nullptr;
    QCPGraph* high = nullptr;
    QCPErrorBars* errorBars = nullptr;
    QCPBars* bars = nullptr;  // bars mode: drawn as bars; `line` then only carries the points
    // x: the bars' centres in bars mode (the category plus the bar's place in its group).
    QVector<double> x, y, lowValues, highValues;
    int coincidenceRank = 0;   // > 0: drawn dashed with markers over an equal series
    int coincidenceDepth = 0;  // > 0: drawn wider, under series equal to it
    bool hatched = false;      // band overlaps another band
    // What the legend entry stands for.
    QCPAbstractPlottable* legendPlottable() const;
  };
  void removeSeries();
  void fitView();
  void showAsCategories();
  void showAsBars(const PlotHints& hints, const QVector<double>& x);
  void layOutBars();
  bool textTicksOnX() const { return categorical_ || bars_; }
  void applyAxisScales();
  void applyStyle();
  void distinguishSeries();
  void placeLegend();
  void fitTexts();
  void fitBars();
  void relayout();
  void putLegendInside();
  void putLegendOutside();
  bool onLegend(const QPointF& position) const;
  void onMousePress(QMouseEvent* event);
  void onMouseMove(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  double valueInAxisScale(const QCPAxis* axis, double value) const;

  QCustomPlot* plot_;
  QCPTextElement* title_;
  QCPItemText* freshnessMark_;
  QCPLayoutGrid* legendSide_ = nullptr;  // holds the legend while it is outside the axes
  QCPItemStraightLine* crosshairX_ = nullptr;
  QCPItemStraightLine* crosshairY_ = nullptr;
  QList<Series> series_;
  bool categorical_ = false;  // one row: series side by side as categories
  bool bars_ = false;         // grouped bars, one group per row (PlotHints::bars)
  int barRows_ = 0;
  QStringList categoryNames_;  // bars mode: the rows' names on the x axis
  QCPBarsGroup* barsGroup_;
  QList<QCPItemText*> valueLabels_;
  QString fullTitle_;  // title and axis labels as the table gives them (shown wrapped)
  QString fullXLabel_, fullYLabel_, fullY2Label_;
  QString xLabel_;
  bool hintXLog_ = false;
  bool hintYLog_ = false;
  bool hintY2Log_ = false;
  std::optional<bool> userXLog_;
  std::optional<bool> userYLog_;
  bool userAdjustedView_ = false;
  bool presentation_ = false;
  std::optional<double> textPoints_;
  QSet<QString> hidden_;
  PlotFreshness freshness_ = PlotFreshness::Current;
  QString freshnessNote_;
  // Legend: a position the user dragged it to (fractions of the axis rect), and a drag under way.
  std::optional<QPointF> userLegendPosition_;
  std::optional<QPointF> legendDragOffset_;
  QPointF pressPosition_;
  bool legendDragged_ = false;
  bool placingLegend_ = false;
};

}  // namespace rfscope::ui
