#pragma once
// The result of every experiment: named numeric columns plus the hints a generic plot view needs
// (which column is x, which columns are series, which pairs of columns form bands).

#include <string>
#include <utility>
#include <vector>

namespace rfscope {

struct Column {
  std::string key;    // kebab-case, unique in the table: "sigma", "trig-mean"
  std::string label;  // for axis titles and CSV comments
  std::vector<double> values;
};

enum class SeriesStyle { Line, Points, LineAndPoints };

struct SeriesHint {
  std::string label;       // legend text
  std::string yColumn;     // the series' values
  std::string lowColumn;   // optional band (e.g. mean - std); empty if none
  std::string highColumn;  // optional band (e.g. mean + std)
  std::string colorKey;    // mechanism/coupling id: same colour in every experiment
  SeriesStyle style = SeriesStyle::Line;
  std::string warning;  // shown next to the series (e.g. heavy tails); empty if none
  // Drawn against the secondary (right-hand) y axis of PlotHints::y2Label, for a quantity with
  // other units or scale than the primary axis (e.g. relative errors beside estimates).
  bool secondaryAxis = false;
  // The legend's text at paper sizes, where the legend must be small: "PosRF IID" for "PosRF, IID
  // measured"; a series after one of its colour may name only what differs ("error" after
  // "TrigRF"). Empty: the label.
  std::string shortLabel{};
  // Whether the series has a legend entry: false for companions whose colour and style the axis
  // label explains (the predicted points beside each measured curve, when there are many).
  bool inLegend = true;
};

// A vertical line across the plot at one x (e.g. the exact value beside a histogram of estimates).
struct XMarker {
  double x = 0;
  std::string label;     // written beside the line
  std::string colorKey;  // as SeriesHint::colorKey; empty: the text colour
};

// How a table is drawn; the GUI has one class per kind (ui/plot_kinds/). Values past the named
// ones are free for kinds registered from elsewhere (a test's toy kind).
enum class PlotKind {
  // One line (or points) per series over x, with bands or error bars; series may use a secondary
  // y axis. A single row is drawn as categories side by side.
  Curves,
  // Each row of the table is a category along x (in row order), each series one bar per category,
  // with error bars where the series has low/high columns (e.g. a table of accuracies per
  // dataset).
  GroupedBars,
};

struct PlotHints {
  std::string title;
  std::string xColumn;
  std::string xLabel;
  std::string yLabel;
  bool xLog = false;
  bool yLog = false;
  // The secondary y axis, used by series with secondaryAxis set (its label; log scale or not).
  std::string y2Label;
  bool y2Log = false;
  // Short axis labels for figures at paper sizes, where the long ones would wrap: the symbol and
  // unit ("σ", "M", "log Var"), what the figure's caption explains left to it. Empty: the label.
  std::string xShortLabel;
  std::string yShortLabel;
  std::string y2ShortLabel;
  PlotKind kind = PlotKind::Curves;
  // Names of x values, shown as tick labels in place of the numbers (e.g. dataset codes); an x
  // value without a name is shown as its number.
  std::vector<std::pair<double, std::string>> xValueNames;
  std::vector<SeriesHint> series;
  // Vertical reference lines, in x's own scale (drawn by kinds with a numeric x axis).
  std::vector<XMarker> xMarkers;
};

// A column of a table under construction: experiments fill columns through handles instead of
// computing positions.
struct ColumnHandle {
  std::size_t index = 0;
};

struct Table {
  std::vector<Column> columns;
  PlotHints hints;

  const Column* column(const std::string& key) const;
  std::size_t rowCount() const { return columns.empty() ? 0 : columns.front().values.size(); }

  // Appends a column (initially `values`) and returns its handle.
  ColumnHandle addColumn(std::string key, std::string label, std::vector<double> values = {});
  Column& operator[](ColumnHandle handle) { return columns[handle.index]; }
  const Column& operator[](ColumnHandle handle) const { return columns[handle.index]; }
  void append(ColumnHandle handle, double value) { columns[handle.index].values.push_back(value); }
};

// The four columns of a value with a band: "<key>-mean", "-std", "-low", "-high", and the series
// that draws the mean with the low–high band.
struct BandColumns {
  ColumnHandle mean, spread, low, high;
  std::size_t series = 0;  // index into hints.series (for warnings)

  // Appends one row: the mean, its spread and the band's ends.
  void append(Table& table, double meanValue, double spreadValue, double lowValue,
              double highValue) const;
};

struct BandLabels {
  std::string mean, spread, low, high;  // appended to the series name in the columns' labels
};

BandColumns addBandSeries(Table& table, const std::string& key, const std::string& name,
                          const BandLabels& labels, const std::string& colorKey, SeriesStyle style);

}  // namespace rfscope
