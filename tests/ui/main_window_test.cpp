// GUI behaviour of the main window, offscreen: generated panel, runs off the GUI thread, plot
// content, re-runs on change, validation errors and cancellation.

#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "tests/ui/widget_lookup.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"

using rfscope::ui::MainWindow;

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void opensWithThePanelGeneratedFromTheSpec() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(QString::fromStdString(window.currentExperiment()->info().id),
             QString("variance-vs-sigma"));
    for (const auto& spec : window.currentExperiment()->parameters())
      QVERIFY2(window.parameterPanel()->editor(spec.key) != nullptr, spec.key.c_str());
    auto* d = spinBoxOf(window.parameterPanel()->editor("d"));
    QVERIFY(d);
    QCOMPARE(d->value(), 64);
    // Any number can be typed (and is then checked against the spec), but the arrows stop at
    // the spec's maximum.
    d->setValue(1024);
    d->stepUp();
    QCOMPARE(d->value(), 1024);
  }

  void regimeParametersShowOnlyForTheirRegime() {
    MainWindow window;
    window.show();
    auto* panel = window.parameterPanel();
    QWidget* mnistFile = panel->editor("mnist-images");
    QVERIFY(mnistFile);
    QVERIFY(!mnistFile->isVisibleTo(panel));
    auto* regime = qobject_cast<QComboBox*>(panel->editor("regime"));
    regime->setCurrentIndex(regime->findData("mnist"));
    QVERIFY(mnistFile->isVisibleTo(panel));
    QVERIFY(!panel->editor("csv-x")->isVisibleTo(panel));
  }

  void firstRunPlotsOneSeriesPerMechanismWithOnePointPerSigma() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->seriesCount(), 3);
    QCOMPARE(window.plotView()->seriesName(0), QString("TrigRF"));
    QCOMPARE(window.plotView()->seriesName(2), QString("OPRF"));
    for (int i = 0; i < 3; ++i)
      QCOMPARE(window.plotView()->seriesPointCount(i), 50);
  }

  void changingAParameterRecomputes() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    auto* steps = spinBoxOf(window.parameterPanel()->editor("sigma-steps"));
    steps->setValue(12);
    // Unchecking a mechanism removes its series.
    for (auto* box : window.parameterPanel()->editor("mechanisms")->findChildren<QCheckBox*>())
      if (box->property("choiceId").toString() == "trig") box->setChecked(false);
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.count(), 2);  // debounced: the two edits ran once
    QCOMPARE(window.plotView()->seriesCount(), 2);
    QCOMPARE(window.plotView()->seriesPointCount(0), 12);
    QCOMPARE(window.lastTable()->rowCount(), std::size_t{12});
  }

  void invalidValuesAreMarkedAndBlockOnlyTheRun() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    for (auto* box : window.parameterPanel()->editor("mechanisms")->findChildren<QCheckBox*>())
      box->setChecked(false);
    QTest::qWait(400);  // past the debounce: no run may start
    QCOMPARE(finished.count(), 1);
    QVERIFY(!window.runController()->isRunning());
    QVERIFY(window.parameterPanel()->errorText("mechanisms").contains("select at least one"));
    QCOMPARE(window.plotView()->seriesCount(), 3);  // the last good plot stays
    const auto boxes = window.parameterPanel()->editor("mechanisms")->findChildren<QCheckBox*>();
    boxes.front()->setChecked(true);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.parameterPanel()->errorText("mechanisms").isEmpty());
    QCOMPARE(window.plotView()->seriesCount(), 1);
  }

  void aMissingDataFileIsReportedUnderItsControl() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    rfscope::ParameterSet params = window.parameterPanel()->parameters();
    params.set("regime", rfscope::ParameterValue(std::string("csv")));
    params.set("csv-x", rfscope::ParameterValue(std::string("/nonexistent/vectors.csv")));
    window.parameterPanel()->setParameters(params);
    emit window.parameterPanel()->parametersChanged();
    // The file is read off the GUI thread; its error arrives under its control, and no run starts.
    QTRY_VERIFY_WITH_TIMEOUT(window.parameterPanel()->errorText("csv-x").contains("cannot open"),
                             5000);
    QCOMPARE(finished.count(), 1);
    QVERIFY(!window.runController()->isRunning());
    QVERIFY2(window.statusMessage().startsWith("Not run"), qPrintable(window.statusMessage()));
  }

  void cancelStopsALongRunAndTheWindowStaysResponsive() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    rfscope::ParameterSet params = window.parameterPanel()->parameters();
    params.set("pairs", std::int64_t{10000});
    params.set("sigma-steps", std::int64_t{2000});
    params.set("d", std::int64_t{1024});
    window.parameterPanel()->setParameters(params);
    auto* controller = window.runController();
    QSignalSpy cancelled(controller, &rfscope::ui::RunController::cancelled);
    controller->start(window.currentExperiment(), window.parameterPanel()->parameters());
    QVERIFY(controller->isRunning());
    QTest::qWait(100);
    QElapsedTimer timer;
    timer.start();
    controller->cancel();
    QVERIFY(!controller->isRunning());
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(timer.elapsed() < 50);  // cancel() never waits for the worker
    QTest::qWait(200);
    QCOMPARE(finished.count(), 1);  // the cancelled run never reports a result
    timer.restart();
  }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
