// Series colours: registry colours for mechanisms and couplings, and, for a mechanism under one
// of several couplings, a shade of the mechanism's colour that no other pair shares.

#include <QtTest>

#include <set>
#include <string>
#include <vector>

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

  void keysNoRegistryOwnsGetHuesApartInOnePlot() {
    // attention-precision's series: hashed hues had put two stabilisers in one red.
    const std::vector<std::string> keys{"fp16-none",
                                        "fp16-performer-max",
                                        "fp16-exponent-max",
                                        "fp64-none",
                                        "fp64-performer-max",
                                        "fp64-exponent-max",
                                        "pos",
                                        "exact"};
    std::vector<QColor> others;
    for (const std::string& key : keys) {
      const QColor colour = ui::seriesColor(key, keys);
      QCOMPARE(colour, ui::seriesColor(key, keys));  // stable
      if (key != "pos" && key != "exact") others.push_back(colour);
    }
    QCOMPARE(ui::seriesColor("pos", keys), ui::seriesColor("pos"));  // registries keep theirs
    for (std::size_t i = 0; i < others.size(); ++i)
      for (std::size_t j = i + 1; j < others.size(); ++j) {
        const int apart = std::abs(others[i].hsvHue() - others[j].hsvHue());
        QVERIFY2(std::min(apart, 360 - apart) >= 360 / 6 - 1,
                 qPrintable(QString("%1 and %2").arg(i).arg(j)));
      }
  }
};

QTEST_MAIN(SeriesColorsTest)
#include "series_colors_test.moc"
