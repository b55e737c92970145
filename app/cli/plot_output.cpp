#include "app/cli/plot_output.h"

#include <QApplication>
#include <memory>

#include "ui/table_plot_export.h"

namespace rfscope::cli {

PlotOutputs plotOutputs(const Arguments& arguments) {
  PlotOutputs outputs;
  for (const char* format : {"png", "pdf", "svg"}) {
    const std::string option = std::string("--") + format;
    if (arguments.has(option)) outputs.files.emplace_back(format, arguments.value(option));
  }
  auto readInt = [&](const char* option, int fallback, int low, int high) {
    if (!arguments.has(option)) return fallback;
    const long long value = parseInteger(option, arguments.value(option));
    if (value < low || value > high)
      throw UsageError(std::string(option) + " must be between " + std::to_string(low) + " and " +
                       std::to_string(high));
    return static_cast<int>(value);
  };
  outputs.width = readInt("--width", 1200, 16, 20000);
  outputs.height = readInt("--height", 800, 16, 20000);
  outputs.dpi = readInt("--dpi", 96, 24, 2400);
  return outputs;
}

void writePlots(const Table& table, const PlotOutputs& outputs) {
  if (outputs.files.empty()) return;
  // Qt is started only when a plot is asked for, on the offscreen platform unless the user chose
  // one.
  static int argc = 1;
  static char name[] = "rfscope-cli";
  static char* argv[] = {name, nullptr};
  std::unique_ptr<QApplication> app;
  if (!QCoreApplication::instance()) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    app = std::make_unique<QApplication>(argc, argv);
  }
  for (const auto& [format, path] : outputs.files) {
    const ui::PlotFormat plotFormat = format == "png"   ? ui::PlotFormat::Png
                                      : format == "pdf" ? ui::PlotFormat::Pdf
                                                        : ui::PlotFormat::Svg;
    ui::exportTablePlot(table, QString::fromStdString(path), plotFormat,
                        {outputs.width, outputs.height, outputs.dpi});
  }
}

}  // namespace rfscope::cli
