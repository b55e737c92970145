#include "app/cli/plot_arguments.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "core/data/input_limits.h"

namespace rfscope::cli {
namespace {

std::string upperCase(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// A figure's default height: a little under two thirds of its width.
constexpr double kHeightPerWidth = 0.65;

// "8", "8pt" or "8.5" → 8 / 8.5.
double parseNumberWithUnit(const std::string& option, const std::string& text, std::string* unit) {
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr == text.data() || !(value > 0))
    throw UsageError(option + " wants a positive number with a unit, got '" + text + "'");
  *unit = std::string(result.ptr, text.data() + text.size());
  return value;
}

}  // namespace

std::string outputOption(const OutputFormat& format) {
  return "--" + format.id;
}

const std::vector<std::string>& plotOptionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const OutputFormat* format : outputFormats(OutputKind::Figure))
      out.push_back(outputOption(*format));
    for (const char* option : {"--width", "--height", "--dpi", "--figure-width", "--figure-height",
                               "--font-size", "--title", "--legend", "--legend-columns"})
      out.emplace_back(option);
    return out;
  }();
  return names;
}

double parseLengthPoints(const std::string& option, const std::string& text) {
  if (text == "one-column") return kOneColumnFigurePoints;
  if (text == "two-column") return kTwoColumnFigurePoints;
  std::string unit;
  const double value = parseNumberWithUnit(option, text, &unit);
  if (unit == "cm") return value / 2.54 * 72;
  if (unit == "mm") return value / 25.4 * 72;
  if (unit == "in") return value * 72;
  if (unit == "pt") return value;
  throw UsageError(option +
                   " wants a length such as 8.5cm, 85mm, 3.35in or 241pt (or one-column, "
                   "two-column), got '" +
                   text + "'");
}

std::string outputPath(const Arguments& arguments, const std::string& option) {
  if (!arguments.has(option)) return {};
  const std::string path = arguments.value(option);
  if (path.empty()) throw UsageError(option + ": empty file name");
  return path;
}

PlotOutputs plotOutputs(const Arguments& arguments) {
  PlotOutputs outputs;
  for (const OutputFormat* format : outputFormats(OutputKind::Figure)) {
    const std::string option = outputOption(*format);
    if (arguments.has(option)) outputs.files.push_back({format, outputPath(arguments, option)});
  }
  auto readInt = [&](const char* option, int fallback, int low, int high) {
    if (!arguments.has(option)) return fallback;
    const long long value = parseInteger(option, arguments.value(option));
    if (value < low || value > high)
      throw UsageError(std::string(option) + " must be between " + std::to_string(low) + " and " +
                       std::to_string(high));
    return static_cast<int>(value);
  };
  PlotExportOptions& options = outputs.options;
  options.width = readInt("--width", 1200, 16, kMaxPlotSide);
  options.height = readInt("--height", 800, 16, kMaxPlotSide);
  options.dpi = readInt("--dpi", 96, 24, 2400);
  const bool figure = arguments.has("--figure-width");
  if (figure && (arguments.has("--width") || arguments.has("--height")))
    throw UsageError(
        "give the size either in pixels (--width/--height) or as a paper size "
        "(--figure-width/--figure-height), not both");
  if (!figure && (arguments.has("--figure-height") || arguments.has("--font-size")))
    throw UsageError("--figure-height and --font-size need --figure-width");
  if (figure) {
    options.figureWidthPoints =
        parseLengthPoints("--figure-width", arguments.value("--figure-width"));
    options.figureHeightPoints =
        arguments.has("--figure-height")
            ? parseLengthPoints("--figure-height", arguments.value("--figure-height"))
            : options.figureWidthPoints * kHeightPerWidth;
    if (options.figureWidthPoints < 36 || options.figureWidthPoints > 2880 ||
        options.figureHeightPoints < 36 || options.figureHeightPoints > 2880)
      throw UsageError("figure size must be between 0.5 and 40 inches (1.27 and 101.6 cm)");
    if (arguments.has("--font-size")) {
      std::string unit;
      options.textPoints =
          parseNumberWithUnit("--font-size", arguments.value("--font-size"), &unit);
      if (!unit.empty() && unit != "pt")
        throw UsageError("--font-size is in points, e.g. 8 or 8pt, got '" +
                         arguments.value("--font-size") + "'");
      if (options.textPoints < 4 || options.textPoints > 48)
        throw UsageError("--font-size must be between 4 and 48 points");
    }
  }
  if (arguments.has("--title")) {
    const std::string& title = arguments.value("--title");
    if (title != "keep" && title != "drop")
      throw UsageError("--title is keep or drop, got '" + title + "'");
    options.title = title == "keep";
  }
  if (arguments.has("--legend")) {
    const std::string& legend = arguments.value("--legend");
    const auto placement = parseLegendPlacement(legend);
    if (!placement) {
      std::string names;
      for (std::size_t i = 0; i < kLegendPlacementNames.size(); ++i)
        names += std::string(i == 0                                  ? ""
                             : i + 1 == kLegendPlacementNames.size() ? " or "
                                                                     : ", ") +
                 std::string(kLegendPlacementNames[i]);
      throw UsageError("--legend is " + names + ", got '" + legend + "'");
    }
    options.legend = *placement;
  }
  options.legendColumns = readInt("--legend-columns", 0, 1, kMaxLegendColumns);
  if (arguments.has("--legend-columns") && options.legend == LegendPlacement::None)
    throw UsageError("--legend-columns arranges the legend, which --legend none leaves out");
  const double pixels = pngPixelCount(options);
  for (const OutputFile& file : outputs.files)
    if (file.format->raster && pixels > kMaxPngPixels)
      throw UsageError(outputOption(*file.format) + ": the image would have " +
                       std::to_string(static_cast<long long>(pixels / 1e6)) + " megapixels; " +
                       upperCase(file.format->id) +
                       " exports are limited to 100 megapixels (lower the size or --dpi)");
  return outputs;
}

}  // namespace rfscope::cli
