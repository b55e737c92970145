#pragma once
// Renders a table the way the app's plot shows it and writes it to a file, without a window: the
// headless counterpart of the GUI's export, used by rfscope-cli. Needs a QApplication (any
// platform, "offscreen" included).

#include <QString>

#include "core/experiments/table.h"
#include "ui/plot_export.h"
#include "ui/plot_view.h"

namespace rfscope::ui {

// view: axis scales and hidden series as a session or preset would set them (default: the
// table's own hints). Returns and throws as exportPlot.
PlotExportResult exportTablePlot(const Table& table, const QString& path,
                                 const FigureWriter& writer, const PlotExportOptions& options,
                                 const PlotViewState& view = {});

}  // namespace rfscope::ui
