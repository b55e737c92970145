#include "core/experiments/table.h"

namespace rfscope {

const Column* Table::column(const std::string& key) const {
  for (const auto& c : columns)
    if (c.key == key) return &c;
  return nullptr;
}

ColumnHandle Table::addColumn(std::string key, std::string label, std::vector<double> values) {
  columns.push_back({std::move(key), std::move(label), std::move(values)});
  return {columns.size() - 1};
}

void BandColumns::append(Table& table, double meanValue, double spreadValue, double lowValue,
                         double highValue) const {
  table.append(mean, meanValue);
  table.append(spread, spreadValue);
  table.append(low, lowValue);
  table.append(high, highValue);
}

BandColumns addBandSeries(Table& table, const std::string& key, const std::string& name,
                          const BandLabels& labels, const std::string& colorKey,
                          SeriesStyle style) {
  BandColumns band;
  band.mean = table.addColumn(key + "-mean", name + labels.mean);
  band.spread = table.addColumn(key + "-std", name + labels.spread);
  band.low = table.addColumn(key + "-low", name + labels.low);
  band.high = table.addColumn(key + "-high", name + labels.high);
  band.series = table.hints.series.size();
  table.hints.series.push_back(
      {name, key + "-mean", key + "-low", key + "-high", colorKey, style, {}});
  return band;
}

}  // namespace rfscope
