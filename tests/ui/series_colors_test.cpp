// Series colours: registry colours for mechanisms and couplings, and, for a mechanism under one
// of several couplings, a shade of the mechanism's colour that no other pair shares.

#include <QtTest>

#include <set>
#include <string>

#include "core/couplings/coupling.h"
#include "core/mechanisms/mechanism_registry.h"
#include "ui/series_colors.h"

using namespace rfscope;

class SeriesColorsTest : public QObject {
  Q_OBJECT

 private slots:
  void registryColours() {
    const Rgb& pos = findMechanism("pos")->info().colour;
    QCOMPARE(ui::seriesColor("pos"), QColor(pos.red, pos.green, pos.blue));
    QCOMPARE(ui::seriesColor("pos-iid"), ui::seriesColor("pos"));  // iid: the mechanism's own
  }

  void everyMechanismUnderEveryCouplingIsDistinct() {
    std::set<QRgb> seen;
    int pairs = 0;
    for (const Mechanism* mechanism : allMechanisms())
      for (const CouplingInfo& coupling : allCouplings()) {
        const std::string key = mechanism->info().id + "-" + coupling.id;
        seen.insert(ui::seriesColor(key).rgb());
        ++pairs;
        // A shade of the mechanism's colour: the same hue family, not a hashed colour.
        const QColor base = ui::seriesColor(mechanism->info().id);
        const QColor shade = ui::seriesColor(key);
        if (base.hsvSaturation() > 40 && shade.hsvSaturation() > 40 && shade.value() > 40)
          QVERIFY2(std::abs(shade.hsvHue() - base.hsvHue()) <= 6, key.c_str());
      }
    QCOMPARE(static_cast<int>(seen.size()), pairs);
  }
};

QTEST_MAIN(SeriesColorsTest)
#include "series_colors_test.moc"
