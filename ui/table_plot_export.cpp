#include "ui/table_plot_export.h"

#include "ui/plot_view.h"

namespace rfscope::ui {

void exportTablePlot(const Table& table, const QString& path, PlotFormat format,
                     const PlotExportOptions& options) {
  PlotView view;
  view.resize(options.width, options.height);
  view.setTable(table);
  exportPlot(view.plot(), path, format, options);
}

}  // namespace rfscope::ui
