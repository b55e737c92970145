#include "ui/table_plot_export.h"

namespace rfscope::ui {

PlotExportResult exportTablePlot(const Table& table, const QString& path,
                                 const FigureWriter& writer, const PlotExportOptions& options,
                                 const PlotViewState& view) {
  PlotView plotView;
  plotView.resize(options.width, options.height);
  plotView.setTable(table);
  plotView.setViewState(view);
  return exportPlot(plotView, path, writer, options);
}

}  // namespace rfscope::ui
