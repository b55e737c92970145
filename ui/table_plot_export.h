#pragma once
// Renders a table the way the app's plot shows it and writes it to a file, without a window: the
// headless counterpart of the GUI's export, used by rfscope-cli. Needs a QApplication (any
// platform, "offscreen" included).

#include <QString>

#include "core/experiments/table.h"
#include "ui/plot_export.h"

namespace rfscope::ui {

void exportTablePlot(const Table& table, const QString& path, PlotFormat format,
                     const PlotExportOptions& options);

}  // namespace rfscope::ui
