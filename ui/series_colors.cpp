#include "ui/series_colors.h"

#include <QHash>
#include <QString>

#include "core/couplings/coupling.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::ui {

QColor seriesColor(const std::string& colorKey) {
  // The registries own the colours of mechanisms and couplings (colour-blind-friendly Okabe–Ito
  // palette first); other keys get a stable colour from their hash.
  const auto toQColor = [](const Rgb& rgb) { return QColor(rgb.red, rgb.green, rgb.blue); };
  if (const Mechanism* mechanism = findMechanism(colorKey))
    return toQColor(mechanism->info().colour);
  if (const CouplingInfo* coupling = findCoupling(colorKey); coupling && coupling->colour)
    return toQColor(*coupling->colour);
  const QString key = QString::fromStdString(colorKey);
  const auto hue = static_cast<int>(qHash(key) % 360);
  return QColor::fromHsv(hue, 200, 190);
}

}  // namespace rfscope::ui
