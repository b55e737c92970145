#include "ui/plot_kinds/plot_kind_registry.h"

#include <map>

#include "ui/plot_kinds/curves_plot.h"
#include "ui/plot_kinds/grouped_bars_plot.h"

namespace rfscope::ui {
namespace {

std::map<PlotKind, PlotKindFactory>& registry() {
  static std::map<PlotKind, PlotKindFactory> kinds{
      {PlotKind::Curves, &makeCurvesPlot},
      {PlotKind::GroupedBars, &makeGroupedBarsPlot},
  };
  return kinds;
}

}  // namespace

void registerPlotKind(PlotKind kind, PlotKindFactory factory) {
  registry()[kind] = std::move(factory);
}

std::unique_ptr<PlotKindRenderer> makePlotRenderer(const Table& table) {
  const auto found = registry().find(table.hints.kind);
  if (table.hints.series.empty() || found == registry().end()) return makeCurvesPlot(table);
  return found->second(table);
}

}  // namespace rfscope::ui
