#include "app/cli/plot_arguments.h"

#include <cmath>

#include "core/data/input_limits.h"

namespace rfscope::cli {

std::string outputPath(const Arguments& arguments, const std::string& option) {
  if (!arguments.has(option)) return {};
  const std::string path = arguments.value(option);
  if (path.empty()) throw UsageError(option + ": empty file name");
  return path;
}

PlotOutputs plotOutputs(const Arguments& arguments) {
  PlotOutputs outputs;
  for (const char* format : {"png", "pdf", "svg"}) {
    const std::string option = std::string("--") + format;
    if (arguments.has(option)) outputs.files.emplace_back(format, outputPath(arguments, option));
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
  const double scale = outputs.dpi / 96.0;
  const double pixels = std::round(outputs.width * scale) * std::round(outputs.height * scale);
  if (arguments.has("--png") && pixels > kMaxPngPixels)
    throw UsageError("--png: " + std::to_string(outputs.width) + "×" +
                     std::to_string(outputs.height) + " at " + std::to_string(outputs.dpi) +
                     " dpi is " + std::to_string(static_cast<long long>(pixels / 1e6)) +
                     " megapixels; PNG exports are limited to 100 megapixels (lower --width, "
                     "--height or --dpi)");
  return outputs;
}

}  // namespace rfscope::cli
