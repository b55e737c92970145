#pragma once
// The size of an exported plot — a screen size in pixels or a paper size in points — and its
// layout: title or none, where the legend goes. Plain data (no Qt), so that the command line can
// parse and check it before anything runs.

#include <array>
#include <cmath>
#include <optional>
#include <string_view>

namespace rfscope {

// Where an export puts the plot's legend.
enum class LegendPlacement {
  // Inside the axes where it covers no data, else outside them (on screen sizes beside the axes
  // when it is narrow, below them when it is wide). At paper sizes outside is below or beside the
  // axes, whichever leaves them more room, and only while they keep at least half of the figure;
  // else inside above the data, the value axes extended to free a band for it.
  Automatic,
  // Inside the axes where it covers no data; where there is no such place, above the data (the
  // value axes extended for it), or where it covers the least.
  Inside,
  Right,  // beside the axes, top-aligned
  Below,  // under the axes, centred
  None,   // no legend
};

// The command line's names of the placements (--legend NAME), in the enum's order.
inline constexpr std::array<std::string_view, 5> kLegendPlacementNames{"auto", "inside", "right",
                                                                       "below", "none"};

inline std::string_view legendPlacementName(LegendPlacement placement) {
  return kLegendPlacementNames[static_cast<std::size_t>(placement)];
}

inline std::optional<LegendPlacement> parseLegendPlacement(std::string_view name) {
  for (std::size_t i = 0; i < kLegendPlacementNames.size(); ++i)
    if (kLegendPlacementNames[i] == name) return static_cast<LegendPlacement>(i);
  return std::nullopt;
}

// The most columns a legend may be asked for.
inline constexpr int kMaxLegendColumns = 20;

struct PlotExportOptions {
  int width = 1200;  // logical size in device-independent pixels (1/96 inch)
  int height = 800;
  int dpi = 96;  // PNG only: pixel size is width·dpi/96 × height·dpi/96
  // A figure at paper size, used instead of width/height when figureWidthPoints > 0: the figure is
  // figureWidthPoints × figureHeightPoints points (1/72 inch) with every text at textPoints points
  // (titles a little larger). PDF and SVG pages have exactly that size; a PNG has it at dpi.
  double figureWidthPoints = 0;
  double figureHeightPoints = 0;
  double textPoints = 8;
  // The plot's title; unset: shown at screen sizes, left out at paper sizes (a figure in a paper
  // has a caption instead).
  std::optional<bool> title{};
  LegendPlacement legend = LegendPlacement::Automatic;
  // Columns of legend entries, 1 to kMaxLegendColumns; 0: as many as fit below the axes or above
  // the data, one beside the axes or in a corner.
  int legendColumns = 0;
};

// Whether an export with these options shows the title.
inline bool exportShowsTitle(const PlotExportOptions& options) {
  return options.title.value_or(options.figureWidthPoints <= 0);
}

// Paper widths of journal figures (points): one column of a two-column page, the full page width.
inline constexpr double kOneColumnFigurePoints = 8.5 / 2.54 * 72;   // 8.5 cm
inline constexpr double kTwoColumnFigurePoints = 17.8 / 2.54 * 72;  // 17.8 cm

// Pixels of a PNG export with these options (checked against kMaxPngPixels).
inline double pngPixelCount(const PlotExportOptions& options) {
  if (options.figureWidthPoints > 0)
    return std::round(options.figureWidthPoints / 72 * options.dpi) *
           std::round(options.figureHeightPoints / 72 * options.dpi);
  const double scale = options.dpi / 96.0;
  return std::round(options.width * scale) * std::round(options.height * scale);
}

}  // namespace rfscope
