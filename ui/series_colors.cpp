#include "ui/series_colors.h"

#include <QHash>
#include <QString>

namespace rfscope::ui {

QColor seriesColor(const std::string& colorKey) {
  // Fixed assignments for the known ids (colour-blind-friendly Okabe–Ito palette first); unknown
  // keys get a stable colour from their hash.
  static const QHash<QString, QColor> known{{"trig", QColor(0, 114, 178)},
                                            {"pos", QColor(213, 94, 0)},
                                            {"oprf", QColor(0, 158, 115)},
                                            {"gerf", QColor(204, 121, 167)},
                                            {"pos-hyp", QColor(230, 159, 0)},
                                            {"pois", QColor(86, 180, 233)},
                                            {"geom", QColor(120, 94, 240)},
                                            {"pois-plus", QColor(0, 90, 140)},
                                            {"geom-plus", QColor(150, 60, 160)},
                                            {"hybrid-angular", QColor(120, 120, 120)},
                                            {"hybrid-gaussian", QColor(60, 60, 60)},
                                            {"iid", QColor(0, 114, 178)},
                                            {"orf", QColor(213, 94, 0)},
                                            {"simrf", QColor(0, 158, 115)},
                                            {"simrf-plus", QColor(204, 121, 167)}};
  const QString key = QString::fromStdString(colorKey);
  if (const auto it = known.find(key); it != known.end()) return *it;
  const auto hue = static_cast<int>(qHash(key) % 360);
  return QColor::fromHsv(hue, 200, 190);
}

}  // namespace rfscope::ui
