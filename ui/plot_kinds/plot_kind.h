#pragma once
// One way of drawing a table (a PlotKind): the interface every plot kind implements, the series it
// draws, and the helpers kinds share. PlotView owns the QCustomPlot, the axes' labels and scales,
// the legend and the interaction; the kind turns the table's series into plottables, styles them,
// fits the view to them and tells the legend where its data lie.
//
// Adding a kind: a class deriving from PlotKindRenderer in a file of its own under ui/plot_kinds/,
// a PlotKind value for it (core/experiments/table.h), and its line in plot_kind_registry.cpp —
// or registerPlotKind from elsewhere (a test registers a toy kind from one file).

#include <QColor>
#include <QFont>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <algorithm>
#include <cmath>

#include "core/experiments/table.h"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPErrorBars;
class QCPGraph;

namespace rfscope::ui {

class DataOccupancy;

// One series of the table as drawn.
struct PlotSeries {
  QString label;       // identity (hide/show, sessions)
  QString shortLabel;  // the legend's text at paper sizes (empty: the label)
  QString warning;     // shown in the tooltip; the legend entry carries only ⚠
  bool inLegend = true;
  SeriesStyle style = SeriesStyle::Line;
  QColor color;
  QCPAxis* valueAxis = nullptr;
  // The series' points, always there (hover, tests); drawn unless a body stands in for it.
  QCPGraph* line = nullptr;
  QCPGraph* low = nullptr;  // a band's edges, filled between
  QCPGraph* high = nullptr;
  QCPErrorBars* errorBars = nullptr;
  // Drawn in place of the line (e.g. bars); it then carries the legend entry.
  QCPAbstractPlottable* body = nullptr;
  // x: where each point is drawn (a bar's centre, a category's place).
  QVector<double> x, y, lowValues, highValues;
  int coincidenceRank = 0;   // > 0: drawn dashed with markers over an equal series
  int coincidenceDepth = 0;  // > 0: drawn wider, under series equal to it
  bool hatched = false;      // band overlaps another band

  // What the legend entry stands for.
  QCPAbstractPlottable* legendPlottable() const;
  // The legend entry's text: the label (the short one at paper sizes), ⚠ if warned.
  QString legendText(bool paper) const;
  // Every plottable drawn for the series.
  QList<QCPAbstractPlottable*> plottables() const;
};

// Line widths and marker sizes for the current text size and mode.
struct PlotStyle {
  double lineWidth = 2;
  double markerSize = 5;
  bool stale = false;  // a previous result: faded behind the mark
  QFont textFont;      // for texts a kind writes in the axes (the tick labels' font)
  bool paper = false;  // a figure at paper size: texts kept whole inside the axes
};

class PlotKindRenderer {
 public:
  virtual ~PlotKindRenderer() = default;

  // Adds the table's series to the plot. The title, axis labels and scales are set; series whose
  // hint asks for the secondary axis go on yAxis2 when `secondaryAxis` is set.
  virtual QList<PlotSeries> build(const Table& table, QCustomPlot* plot, bool secondaryAxis) = 0;
  // Removes what build added besides the series' plottables (items, groups); called before the
  // plot's graphs and the series' plottables are removed.
  virtual void remove(QCustomPlot* plot);
  // Line colours, widths, dashes, markers and fills of every series.
  virtual void style(QList<PlotSeries>& series, const PlotStyle& style) const = 0;

  // The x axis carries names, not numbers: no log scale, no number format.
  virtual bool namesOnX() const { return false; }
  // The x axis's label, given the table's.
  virtual QString xAxisLabel(const QString& hinted) const { return hinted; }
  virtual bool legendShown() const { return true; }
  // The width of a legend entry's icon, in text sizes.
  virtual double legendIconWidth() const { return 3; }
  // Axis ranges that show every visible series (default: all data, 4% margins).
  virtual void fit(QCustomPlot* plot, const QList<PlotSeries>& series) const;
  // Sets the series' coincidence ranks and hatching (default: none coincide).
  virtual void distinguish(QCustomPlot* plot, QList<PlotSeries>& series) const;
  // After a series was hidden or shown.
  virtual void visibilityChanged(QList<PlotSeries>& series);
  // After each layout of the plot, before the legend is placed (default: upright x tick labels).
  virtual void fitToLayout(QCustomPlot* plot, const QList<PlotSeries>& series);
  // Marks a visible series' drawn data (default: lines, markers, bands, error bars).
  virtual void addToOccupancy(DataOccupancy& occupancy, const PlotSeries& series,
                              const QCPAxis* xAxis) const;
  // Marks what the kind drew besides its series (reference lines and their labels; default:
  // nothing), so that the legend avoids it too.
  virtual void addItemsToOccupancy(DataOccupancy& occupancy) const;
  // The hover text's x line ("x = 0.3<br>"), empty when x says nothing.
  virtual QString describeX(const QString& xLabel, const PlotSeries& series, int index) const;
};

// ---- Helpers the kinds share ----------------------------------------------------------------

QVector<double> columnValues(const Table& table, const std::string& key);  // empty if none
QString formatNumber(double value);  // 8 significant digits, "n/a" for NaN
bool isLogAxis(const QCPAxis* axis);
// Widens the axis's range by `factor` about its middle — the geometric middle on a log axis, so
// that a value at the range's top (e.g. an exact line at 1) keeps a margin from the frame.
void addMargins(QCPAxis* axis, double factor = 1.04);
// Pixel coordinate of a value, NaN where the axis cannot show it (≤ 0 on a log axis).
double toPixel(const QCPAxis* axis, double value);
// A band edge's pixel: on a log axis a non-positive edge is drawn past the axis's lower end.
double bandEdgePixel(const QCPAxis* axis, double value);
// Widget pixel positions of a series' data points (values and band edges).
QVector<QPointF> dataPixels(const PlotSeries& series, const QCPAxis* xAxis);
// The colour of a series or marker key among the table's series (seriesColor with the plot's keys).
QColor colorIn(const Table& table, const std::string& colorKey);
// The series of a hint with its values, colour and value axis; no plottables yet.
PlotSeries seriesOf(const SeriesHint& hint, const Table& table, QCustomPlot* plot,
                    bool secondaryAxis);
// Whether the hint's low and high columns are in the table (a band or error bars).
bool hasInterval(const SeriesHint& hint, const Table& table);
// Adds the graph of the series' points at `keys` (its legend entry: the label, ⚠ if warned).
void addLine(PlotSeries& series, QCustomPlot* plot, const QVector<double>& keys);
// Error bars from the series' low/high values, on the plottable that carries its legend entry.
void addErrorBars(PlotSeries& series, QCustomPlot* plot);

// Names along the x axis, one per category at 1, 2, …: slanted when the widest (with a little room)
// is wider than a category, upright otherwise; the plot laid out again when that changed.
void slantCrowdedNames(QCustomPlot* plot, const QStringList& names);

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

}  // namespace rfscope::ui
