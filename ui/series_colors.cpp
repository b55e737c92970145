#include "ui/series_colors.h"

#include <QString>
#include <array>
#include <string_view>

#include "core/couplings/coupling.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::ui {
namespace {

struct KeyColor {
  std::string_view key;
  int red, green, blue;
};

// The reference curves (exact values, bounds, optima), which no registry owns: exact values and
// optima in black, the HRF bound in a dark red that no mechanism uses (TrigRF's blue and FAVOR+'s
// amber stay distinct from it).
constexpr std::array kReferenceColors{
    KeyColor{"exact", 0, 0, 0},
    KeyColor{"optimized", 0, 0, 0},
    KeyColor{"lemma-3-4", 0, 0, 0},
    KeyColor{"theorem-3-5", 170, 20, 60},
};

}  // namespace

QColor seriesColor(const std::string& colorKey) {
  // The registries own the colours of mechanisms and couplings (colour-blind-friendly Okabe–Ito
  // palette first); reference curves have theirs above; other keys get a stable colour from their
  // hash.
  const auto toQColor = [](const Rgb& rgb) { return QColor(rgb.red, rgb.green, rgb.blue); };
  if (const Mechanism* mechanism = findMechanism(colorKey))
    return toQColor(mechanism->info().colour);
  if (const CouplingInfo* coupling = findCoupling(colorKey); coupling && coupling->colour)
    return toQColor(*coupling->colour);
  for (const KeyColor& known : kReferenceColors)
    if (known.key == colorKey) return QColor(known.red, known.green, known.blue);
  const auto hue = static_cast<int>(qHash(QString::fromStdString(colorKey)) % 360);
  return QColor::fromHsv(hue, 200, 190);
}

}  // namespace rfscope::ui
