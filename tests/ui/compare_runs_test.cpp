// Compare runs (Compare menu): pinned curves stay on the plot, dimmed and named by the parameters
// in which they differ, while the settings change; pins of another experiment wait, with the
// reason in the status bar; a saved result file can be pinned, and a malformed one is refused.

#include <qcustomplot.h>

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/ui/widget_lookup.h"
#include "ui/compare_menu.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"

using rfscope::ui::MainWindow;

class CompareRunsTest : public QObject {
  Q_OBJECT

  static QStringList pinnedNames(const MainWindow& window) {
    QStringList names;
    for (int i = 0; i < window.plotView()->pinnedSeriesCount(); ++i)
      names << window.plotView()->pinnedSeriesName(i);
    return names;
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void pinnedCurvesStayDimmedWhileTheSettingsChange() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QAction* pin = menuAction(window, "Compare", "Pin Current Curves");
    QAction* clear = menuAction(window, "Compare", "Clear Pinned Curves");
    QVERIFY(pin && clear);
    QCOMPARE(pin->shortcut(), QKeySequence("Ctrl+P"));
    QVERIFY(!clear->isEnabled());
    pin->trigger();
    // Pinned at the settings shown: named as such until the settings change.
    QCOMPARE(pinnedNames(window),
             QStringList({"TrigRF (pinned)", "PosRF (pinned)", "OPRF (pinned)"}));
    QVERIFY(clear->isEnabled());

    QVERIFY(window.parameterPanel()->stepParameter("d", -2));  // d = 16
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->seriesCount(), 3);  // the live run, on top
    QCOMPARE(pinnedNames(window),
             QStringList({"TrigRF (d = 64)", "PosRF (d = 64)", "OPRF (d = 64)"}));
    // Dimmed: faded, thinner and dashed beside the live series of the same mechanism.
    const QPen live = window.plotView()->seriesGraph(1)->pen();
    const QPen pinned = window.plotView()->pinnedGraph(1)->pen();
    QCOMPARE(pinned.color().rgb(), live.color().rgb());  // PosRF's colour
    QVERIFY(pinned.color().alpha() < 200);
    QVERIFY(pinned.widthF() < live.widthF());
    QCOMPARE(pinned.style(), Qt::DashLine);
    // Drawn under the live series, in the legend after them.
    QVERIFY(window.plotView()->pinnedGraph(0)->layer()->index() <
            window.plotView()->seriesGraph(0)->layer()->index());
    QVERIFY(
        window.plotView()->plot()->legend->itemWithPlottable(window.plotView()->pinnedGraph(0)));
    // The pinned curves are d = 64's: a different line from the live d = 16.
    QVERIFY(window.plotView()->pinnedGraph(1)->data()->at(10)->value !=
            window.plotView()->seriesGraph(1)->data()->at(10)->value);

    // A second pin; both stay while the settings change again.
    pin->trigger();
    QVERIFY(window.parameterPanel()->stepParameter("seed", 1));
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 6);
    QVERIFY2(pinnedNames(window).contains("TrigRF (seed = 1)"),
             qPrintable(pinnedNames(window).join(" | ")));
    QVERIFY(pinnedNames(window).contains("TrigRF (d = 64, seed = 1)"));
    QVERIFY(clear->text().contains("(2)"));

    clear->trigger();
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 0);
    QCOMPARE(window.plotView()->seriesCount(), 3);
    QVERIFY(!clear->isEnabled());
  }

  void pinsOfAnotherExperimentWaitWithTheReasonShown() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    menuAction(window, "Compare", "Pin Current Curves")->trigger();
    window.selectExperiment("variance-ratio-vs-norm");
    QVERIFY(finished.wait(20000));
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 0);
    QVERIFY2(window.statusMessage().contains(
                 "1 pinned run not drawn: of another experiment (variance-vs-sigma)"),
             qPrintable(window.statusMessage()));
    window.selectExperiment("variance-vs-sigma");
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 3);  // kept for later
  }

  void aSavedResultFileCanBePinned() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    const QString path = dir.filePath("d64.json");
    QVERIFY(window.exportCsvTo(path, true));                  // the JSON table export
    QVERIFY(window.parameterPanel()->stepParameter("d", 1));  // d = 128
    QVERIFY(finished.wait(10000));
    QVERIFY(menuAction(window, "Compare", "Load Result to Compare"));
    QVERIFY(window.compareMenu()->pinResultFile(path));
    QCOMPARE(pinnedNames(window),
             QStringList({"TrigRF (d = 64)", "PosRF (d = 64)", "OPRF (d = 64)"}));
    QVERIFY(window.statusMessage().contains("d64.json"));
    // The same file again is not pinned twice.
    QVERIFY(!window.compareMenu()->pinResultFile(path));
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 3);

    // A malformed file is refused with its reason, and changes nothing.
    const QString bad = dir.filePath("bad.json");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"experiment":"variance-vs-sigma","table":{"columns":[],"plot":{"x":"sigma"}}})");
    file.close();
    QString error;
    QVERIFY(!window.compareMenu()->pinResultFile(bad, &error));
    QVERIFY2(error.contains("table.plot.x: names no column of the table (\"sigma\")"),
             qPrintable(error));
    QVERIFY(window.statusMessage().contains(error));
    QCOMPARE(window.plotView()->pinnedSeriesCount(), 3);
  }
};

QTEST_MAIN(CompareRunsTest)
#include "compare_runs_test.moc"
