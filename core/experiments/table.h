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
  std::vector<SeriesHint> series;
};

struct Table {
  std::vector<Column> columns;
  PlotHints hints;

  const Column* column(const std::string& key) const;
  std::size_t rowCount() const { return columns.empty() ? 0 : columns.front().values.size(); }
};

}  // namespace rfscope
