#pragma once
// A generic plot of any experiment Table, driven only by the table's plot hints. The hints' kind
// picks the class that draws the series (ui/plot_kinds/: curves with bands, grouped bars, …); the
// view owns the axes, their labels and scales, the title, the freshness mark, the legend
// (ui/plot_legend_layout.h) and the pointer (ui/plot_interaction.h).
// Interaction: drag to pan, wheel to zoom, click a legend entry to hide/show its series, drag the
// legend to move it, hover for exact values, optional crosshair, log/linear axes. The user's zoom
// survives streamed updates until the view is reset.
//
// The plot keeps its data readable on its own: the legend goes where it covers no data (outside
// the axes when no such place exists), a log-spaced grid gets a log axis, series that coincide get
// distinct dashes and markers, overlapping bands are hatched, and a result that no longer matches
// the settings (stale) or was cut short (partial) is marked as such.
//
// Pinned runs (setPinnedCurves, ui/pinned_overlay.h) are drawn dimmed under the current table's
// series, for comparison, and kept across tables until replaced.

#include <QMargins>
#include <QSet>
#include <QWidget>
#include <memory>
#include <optional>

#include "core/experiments/table.h"
#include "core/io/plot_export_options.h"
#include "ui/pinned_overlay.h"
#include "ui/plot_kinds/plot_kind.h"

class QAction;
class QMenu;
class QCustomPlot;
class QCPBars;
class QCPBarsGroup;
class QCPGraph;
class QCPItemText;
class QCPTextElement;

namespace rfscope::ui {

class AxisRangeDialog;
class PlotInteraction;
class PlotLegendLayout;
struct AxisRanges;

// What a session remembers of the view.
struct PlotViewState {
  std::optional<bool> xLog;  // unset: follow the table's hint
  std::optional<bool> yLog;
  std::optional<std::pair<double, double>> xRange;  // unset: fit the data
  std::optional<std::pair<double, double>> yRange;
  QSet<QString> hiddenSeries;  // series labels
};

// How an export lays the plot out (ui/plot_export.h sets it for the export's duration); the
// default is the screen's layout.
struct FigureLayout {
  // A figure at paper size: spacing in proportion to the text, the axes' short labels, tick labels
  // kept on the page, the legend outside only while the axes keep half of the figure.
  bool paper = false;
  bool title = true;
  LegendPlacement legend = LegendPlacement::Automatic;
  int legendColumns = 0;  // 0: automatic
};

// Whether the plotted table belongs to the current settings.
enum class PlotFreshness {
  Current,  // the result of the settings shown
  Stale,    // the settings changed (or are invalid) and this is the previous result
  Partial,  // an incomplete result: still running, or cancelled before the end
  Saved,    // a result read from a file (a session), not computed in this run of the app
};

class PlotView : public QWidget {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);
  ~PlotView() override;

  void setTable(const Table& table);
  void clear();
  QCustomPlot* plot() const { return plot_; }

  void resetView();  // fit all data, forget the user's zoom and legend position
  // The x and y axes' ranges as shown; setAxisRanges shows exactly these (kept like a zoom until
  // the view is reset). The ranges must suit the axes' scales (axisRangesProblem).
  AxisRanges axisRanges() const;
  void setAxisRanges(const AxisRanges& ranges);
  // Opens the dialog for exact ranges (window-modal, returns at once); OK applies them.
  AxisRangeDialog* editAxisRanges();
  // The plot's own actions, in its context menu and the main window's View menu.
  QAction* resetViewAction() const { return resetViewAction_; }
  QAction* axisRangesAction() const { return axisRangesAction_; }
  QMenu* makeContextMenu();  // what a right click on the plot opens (the caller owns it)
  void setLogX(bool on);
  void setLogY(bool on);
  bool logX() const;
  bool logY() const;
  void setCrosshair(bool on);
  // Filled bands (spreads, confidence bands) drawn or not; lines, points and error bars stay.
  void setBandsShown(bool on);
  bool bandsShown() const { return bandsShown_; }
  void setPresentationMode(bool on);  // thicker lines, larger fonts
  // Text size of every label in points (tick labels and legend; titles a little larger); unset:
  // the widget's font. Exports at a paper size set it; line widths scale with it.
  void setTextPointSize(std::optional<double> points);
  void setFigureLayout(const FigureLayout& layout);
  const FigureLayout& figureLayout() const { return figure_; }
  void setSeriesVisible(const QString& label, bool visible);

  // Runs kept for comparison, drawn dimmed under the table's series (replacing earlier ones). Only
  // tables drawn as curves over numbers show them; the caller picks pins of the same x column.
  void setPinnedCurves(const QList<PinnedCurves>& pins);
  int pinnedSeriesCount() const;
  QString pinnedSeriesName(int series) const;
  QCPGraph* pinnedGraph(int series) const;

  // Marks the plot as stale or partial (note: the reason, shown under the mark), or current.
  void setFreshness(PlotFreshness freshness, const QString& note = {});
  PlotFreshness freshness() const { return freshness_; }
  QString freshnessText() const;  // the mark's words (unwrapped), empty when current
  // For tests: the mark's plate in widget pixels (empty while hidden), and whether it is drawn
  // over every plottable.
  QRectF freshnessMarkRect() const;
  bool freshnessMarkAboveData() const;
  // While an export renders: a saved result's mark is left out of the file (the result is that of
  // the settings shown); the stale and partial marks stay, as they say what the figure is.
  void setExporting(bool on);

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
  QCPBarsGroup* barsGroup() const;        // the bars' group, null without bars
  // Widget pixel positions of every visible data point (lines, markers, band edges).
  QVector<QPointF> visibleDataPixels() const;
  // Cells of the drawn data (lines, markers, bands, error bars, bars) that the legend covers, on
  // the legend placement's occupancy grid; 0 when the legend is hidden or outside the axes.
  int dataCellsUnderLegend() const;

 signals:
  void viewChanged();

 private:
  void removeSeries();
  void fitView();
  bool namesOnX() const;
  void applyAxisScales();
  void applyStyle();
  void distinguishSeries();
  void placeLegend();
  bool fitTexts();  // true when a shown text changed
  void fitFreshnessMark();
  void buildPinned();
  QList<PlotSeries> seriesWithPinned() const;
  void showTitle(bool on);
  void applySpacing();
  // At paper sizes: margins that keep the tick labels at the axes' ends on the page.
  void fitTickLabelsOnPage();

  QCustomPlot* plot_;
  QAction* resetViewAction_;
  QAction* axisRangesAction_;
  QCPTextElement* title_;
  QCPItemText* freshnessMark_;
  std::unique_ptr<PlotLegendLayout> legend_;
  PlotInteraction* interaction_;
  std::unique_ptr<PlotKindRenderer> kind_;  // draws the current table
  QList<PlotSeries> series_;
  PinnedOverlay pinned_;
  QList<PinnedCurves> pins_;
  bool hasTable_ = false;
  QString fullTitle_;  // title and axis labels as the table gives them (shown wrapped)
  QString fullXLabel_, fullYLabel_, fullY2Label_;
  QString shortXLabel_, shortYLabel_, shortY2Label_;  // for paper sizes (empty: the full ones)
  QString xLabel_;
  bool hintXLog_ = false;
  bool hintYLog_ = false;
  bool hintY2Log_ = false;
  std::optional<bool> userXLog_;
  std::optional<bool> userYLog_;
  bool userAdjustedView_ = false;
  bool presentation_ = false;
  std::optional<double> textPoints_;
  FigureLayout figure_;
  // The screen's spacing, restored after an export at paper size.
  struct Spacing {
    QMargins legendMargins;
    int legendRowSpacing = 0, legendColumnSpacing = 0, iconTextPadding = 0;
    int layoutRowSpacing = 0, layoutColumnSpacing = 0;
    QMargins axisRectMinimumMargins;
    int axisPadding = 0, tickLabelPadding = 0, labelPadding = 0;
  } screenSpacing_;
  QSet<QString> hidden_;
  bool bandsShown_ = true;
  PlotFreshness freshness_ = PlotFreshness::Current;
  QString freshnessNote_;
  QFont markFont_;  // the mark's font before fitting it to the axes
  bool exporting_ = false;
  bool placingLegend_ = false;
};

}  // namespace rfscope::ui
