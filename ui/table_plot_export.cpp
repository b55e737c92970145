#include "ui/table_plot_export.h"

namespace rfscope::ui {

void exportTablePlot(const Table& table, const QString& path, PlotFormat format,
                     const PlotExportOptions& options, const PlotViewState& view) {
  PlotView plotView;
  plotView.resize(options.width, options.height);
  plotView.setTable(table);
  plotView.setViewState(view);
  exportPlot(plotView, path, format, options);
}

}  // namespace rfscope::ui
