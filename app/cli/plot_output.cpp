#include "app/cli/plot_output.h"

#include <QApplication>
#include <memory>
#include <stdexcept>

#include "ui/plot_view.h"
#include "ui/table_plot_export.h"

namespace rfscope::cli {

void writePlots(const Table& table, const PlotOutputs& outputs) {
  if (outputs.files.empty()) return;
  // Qt is started only when a plot is asked for, always on the offscreen platform: a file needs
  // no display, and a platform named in the environment (xcb without a display, say) would abort.
  static int argc = 1;
  static char name[] = "rfscope-cli";
  static char* argv[] = {name, nullptr};
  std::unique_ptr<QApplication> app;
  if (!QCoreApplication::instance()) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    app = std::make_unique<QApplication>(argc, argv);
  }
  ui::PlotViewState view;
  view.xLog = outputs.xLog;
  view.yLog = outputs.yLog;
  for (const OutputFile& file : outputs.files) {
    const ui::FigureWriter* writer = ui::findFigureWriter(file.format->id);
    if (!writer)
      throw std::runtime_error("cannot write '" + file.path + "': no figure writer for " +
                               file.format->id);
    // The options were checked with the arguments: a problem here is not the user's.
    if (const auto result = ui::exportTablePlot(table, QString::fromStdString(file.path), *writer,
                                                outputs.options, view);
        !result)
      throw std::runtime_error("cannot write '" + file.path + "': " + result.problem);
  }
}

}  // namespace rfscope::cli
