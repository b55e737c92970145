#include "ui/series_colors.h"

#include <QString>
#include <array>
#include <string_view>

namespace rfscope::ui {
namespace {

struct KeyColor {
  std::string_view key;
  int red, green, blue;
};

// Fixed assignments for the known ids (colour-blind-friendly Okabe–Ito palette first). Series
// shown together must differ clearly in hue: mechanisms among themselves, couplings among
// themselves, and the reference curves (exact values, bounds, optima) against both.
constexpr std::array kKnownColors{
    // Mechanisms.
    KeyColor{"trig", 0, 114, 178},
    KeyColor{"pos", 213, 94, 0},
    KeyColor{"oprf", 0, 158, 115},
    KeyColor{"gerf", 204, 121, 167},
    KeyColor{"pos-hyp", 230, 159, 0},
    KeyColor{"pois", 86, 180, 233},
    KeyColor{"geom", 120, 94, 240},
    KeyColor{"pois-plus", 0, 90, 140},
    KeyColor{"geom-plus", 150, 60, 160},
    KeyColor{"hybrid-angular", 120, 120, 120},
    KeyColor{"hybrid-gaussian", 60, 60, 60},
    // Couplings.
    KeyColor{"iid", 0, 114, 178},
    KeyColor{"orf", 213, 94, 0},
    KeyColor{"simrf", 0, 158, 115},
    KeyColor{"simrf-plus", 204, 121, 167},
    KeyColor{"orf-fast", 230, 159, 0},
    KeyColor{"simrf-fast", 120, 94, 240},
    // Reference curves: exact values and optima in black, the HRF bounds in a dark red that no
    // mechanism uses (TrigRF's blue and FAVOR+'s amber stay distinct from it).
    KeyColor{"exact", 0, 0, 0},
    KeyColor{"optimized", 0, 0, 0},
    KeyColor{"lemma-3-4", 0, 0, 0},
    KeyColor{"theorem-3-5", 170, 20, 60},
};

}  // namespace

QColor seriesColor(const std::string& colorKey) {
  for (const KeyColor& known : kKnownColors)
    if (known.key == colorKey) return QColor(known.red, known.green, known.blue);
  // Unknown keys get a stable colour from their hash.
  const auto hue = static_cast<int>(qHash(QString::fromStdString(colorKey)) % 360);
  return QColor::fromHsv(hue, 200, 190);
}

}  // namespace rfscope::ui
