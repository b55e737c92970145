#include "ui/series_colors.h"

#include <QString>
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/couplings/coupling.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::ui {
namespace {

struct KeyColor {
  std::string_view key;
  int red, green, blue;
};

// The reference curves (exact values, bounds, optima, true functions), which no registry owns:
// exact values and optima in black, true functions in grey, the HRF bound in a dark red that no
// mechanism uses (TrigRF's blue and FAVOR+'s amber stay distinct from it).
constexpr std::array kReferenceColors{
    KeyColor{"exact", 0, 0, 0},       KeyColor{"optimized", 0, 0, 0},
    KeyColor{"lemma-3-4", 0, 0, 0},   KeyColor{"theorem-3-5", 170, 20, 60},
    KeyColor{"truth", 150, 150, 150},  // a function the data were drawn from, beside "exact"
    KeyColor{"data", 60, 60, 60},      // observed points (training data), darker than the truth
};

// "<mechanism>-<coupling>" (a series of one mechanism under one of several couplings, beside other
// mechanisms): the mechanism's colour, darker or paler by the coupling (a grey: tinted), so that
// every pair is told apart and each mechanism's family stays recognisable.
std::optional<QColor> mechanismUnderCoupling(const std::string& colorKey) {
  for (const Mechanism* mechanism : allMechanisms()) {
    const std::string& id = mechanism->info().id;
    if (colorKey.size() <= id.size() + 1 || colorKey.compare(0, id.size(), id) != 0 ||
        colorKey[id.size()] != '-')
      continue;
    const CouplingInfo* coupling = findCoupling(colorKey.substr(id.size() + 1));
    if (!coupling) continue;
    const auto& couplings = allCouplings();
    const auto index = static_cast<int>(coupling - couplings.data());
    const Rgb& rgb = mechanism->info().colour;
    const QColor base(rgb.red, rgb.green, rgb.blue);
    // iid: the colour itself; then, with the hue kept, alternately darker and paler, further
    // each time.
    if (index == 0) return base;
    // A grey has no hue to keep: a faint tint per coupling at the grey's brightness, eight hues
    // 45° apart, then the next eight between them (indices 9 and 10 had repeated 1 and 2).
    if (base.hsvSaturation() < 30)
      return QColor::fromHsv((index * 45 + (index / 8) * 22) % 360, 90, base.value());
    // ORF and SimRF, the couplings most often compared, get the strongest shades.
    // Distinct shades for up to 11 couplings (five darker, five paler; orf-norm-coupled is the
    // eleventh).
    constexpr int kDarker[] = {62, 42, 80, 28, 52};  // value, % of the base's
    constexpr int kPaler[] = {42, 70, 22, 56, 12};   // saturation, % of the base's
    const int k = (index + 1) / 2 - 1;
    const int hue = base.hsvHue(), saturation = base.hsvSaturation(), value = base.value();
    if (index % 2 == 1) return QColor::fromHsv(hue, saturation, value * kDarker[k % 5] / 100);
    return QColor::fromHsv(hue, saturation * kPaler[k % 5] / 100, value);
  }
  return std::nullopt;
}

std::optional<QColor> ownColor(const std::string& colorKey) {
  const auto toQColor = [](const Rgb& rgb) { return QColor(rgb.red, rgb.green, rgb.blue); };
  if (const Mechanism* mechanism = findMechanism(colorKey))
    return toQColor(mechanism->info().colour);
  if (const CouplingInfo* coupling = findCoupling(colorKey); coupling && coupling->colour)
    return toQColor(*coupling->colour);
  for (const KeyColor& known : kReferenceColors)
    if (known.key == colorKey) return QColor(known.red, known.green, known.blue);
  return mechanismUnderCoupling(colorKey);
}

}  // namespace

QColor seriesColor(const std::string& colorKey, const std::vector<std::string>& keysInPlot) {
  // The registries own the colours of mechanisms and couplings (colour-blind-friendly Okabe–Ito
  // palette first); reference curves have theirs above; a mechanism under one of several couplings
  // a shade of the mechanism's. Other keys: spread over the hue circle among the plot's other
  // such keys (hashed hues collided: attention-precision drew two stabilisers in one red).
  if (const auto own = ownColor(colorKey)) return *own;
  std::vector<std::string> others;
  for (const std::string& key : keysInPlot)
    if (!ownColor(key) && std::find(others.begin(), others.end(), key) == others.end())
      others.push_back(key);
  const auto at = std::find(others.begin(), others.end(), colorKey);
  if (at != others.end()) {
    const auto index = static_cast<int>(at - others.begin());
    const auto count = static_cast<int>(others.size());
    // Saturated and darker on even places, paler on odd ones, so that neighbours differ twice.
    return QColor::fromHsv((20 + index * 360 / count) % 360, index % 2 ? 140 : 220,
                           index % 2 ? 215 : 175);
  }
  const auto hue = static_cast<int>(qHash(QString::fromStdString(colorKey)) % 360);
  return QColor::fromHsv(hue, 200, 190);
}

}  // namespace rfscope::ui
