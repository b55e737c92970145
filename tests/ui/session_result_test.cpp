// A session saved with its result reopens showing the figure without recomputing, marked as a
// saved result until a setting changes; a session saved while its result is not that of the
// settings shown (a run under way) keeps none and is recomputed.

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/data_table_dock.h"
#include "ui/data_table_model.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"

using rfscope::ui::MainWindow;
using rfscope::ui::PlotFreshness;

class SessionResultTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void aSavedResultOpensWithoutRunning() {
    QTemporaryDir dir;
    const QString path = dir.filePath("session.json");
    rfscope::Table saved;
    {
      MainWindow window;
      window.show();
      QSignalSpy finished(&window, &MainWindow::runFinished);
      QVERIFY(finished.wait(10000));
      QVERIFY(window.parameterPanel()->stepParameter("d", -1));  // d = 32
      QVERIFY(finished.wait(10000));
      QVERIFY(window.saveSessionTo(path, true));
      QVERIFY2(window.statusMessage().contains("with its result"),
               qPrintable(window.statusMessage()));
      saved = *window.lastTable();
    }

    MainWindow other;
    other.show();
    QSignalSpy finished(&other, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));  // its own first run, of the defaults
    auto* controller = other.runController();
    QSignalSpy progress(controller, &rfscope::ui::RunController::progressChanged);
    QVERIFY(other.openSessionFrom(path, true));
    QVERIFY(finished.wait(5000));  // the saved result is on screen
    QTest::qWait(400);             // past the debounce: still nothing runs
    QVERIFY(!controller->isRunning());
    QCOMPARE(progress.count(), 0);
    QCOMPARE(other.parameterPanel()->parameters().integer("d"), 32);
    QCOMPARE(other.lastTable()->rowCount(), saved.rowCount());
    QCOMPARE(other.lastTable()->columns[1].values, saved.columns[1].values);
    QCOMPARE(other.plotView()->seriesCount(), 3);
    QCOMPARE(other.plotView()->freshness(), PlotFreshness::Saved);
    QVERIFY(other.plotView()->freshnessText().startsWith("saved result"));
    QCOMPARE(other.dataTable()->model()->rowCount(), static_cast<int>(saved.rowCount()));
    // Exported, the figure is that of its settings: without the mark.
    const QString svg = dir.filePath("figure.svg");
    QVERIFY(other.exportPlotTo(svg, {800, 500, 96}, true));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QVERIFY(content.contains("TrigRF"));  // texts are written as text
    QVERIFY(!content.contains("saved result"));
    QVERIFY(other.plotView()->freshnessText().startsWith("saved result"));  // still on screen

    // A change runs the new settings, and the mark goes.
    QVERIFY(other.parameterPanel()->stepParameter("d", 1));
    QVERIFY(finished.wait(10000));
    QCOMPARE(other.plotView()->freshness(), PlotFreshness::Current);
    QVERIFY(other.lastTable()->hints.title.find("d = 64") != std::string::npos);
  }

  void aResultOfOtherSettingsIsNotSaved() {
    QTemporaryDir dir;
    const QString path = dir.filePath("session.json");
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.parameterPanel()->stepParameter("d", -1));  // not run yet
    QVERIFY(window.saveSessionTo(path, true));
    QVERIFY(!window.statusMessage().contains("with its result"));
    MainWindow other;
    QSignalSpy otherFinished(&other, &MainWindow::runFinished);
    QVERIFY(other.openSessionFrom(path, true));
    QVERIFY(otherFinished.wait(10000));
    QCOMPARE(other.plotView()->freshness(), PlotFreshness::Current);  // recomputed
    QCOMPARE(other.parameterPanel()->parameters().integer("d"), 32);
  }
};

QTEST_MAIN(SessionResultTest)
#include "session_result_test.moc"
