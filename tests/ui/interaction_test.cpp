// Plot and window interaction: legend toggling, hover values, axes, presets, teaching text,
// keyboard stepping, presentation mode, streaming partial results.

#include <qcustomplot.h>

#include <cmath>
#include <memory>
#include <variant>

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/ui/widget_lookup.h"
#include "ui/backend_menu.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"
#include "ui/teaching_panel.h"
#include "ui/user_presets.h"

using rfscope::ui::MainWindow;

class InteractionTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void computeMenuChoosesAndRemembersTheBackend() {
    QSettings().remove("compute/backend");
    auto window = std::make_unique<MainWindow>();
    auto* menu = window->findChild<rfscope::ui::BackendMenu*>();
    auto* controller = window->findChild<rfscope::ui::RunController*>();
    QVERIFY(menu && controller);
    QCOMPARE(menu->choice(), rfscope::BackendChoice::Auto);
    QCOMPARE(controller->backendChoice(), rfscope::BackendChoice::Auto);
    QSignalSpy probed(menu, &rfscope::ui::BackendMenu::probed);
    QVERIFY(probed.count() > 0 || probed.wait(10000));
    QAction* gpu = nullptr;
    QAction* cpu = nullptr;
    for (QAction* a : menu->actions()) {
      if (a->text().contains("GPU") && !a->text().contains("Automatic")) gpu = a;
      if (a->text().contains("CPU")) cpu = a;
    }
    QVERIFY(gpu && cpu);
    // Enabled exactly when a CUDA device is usable; otherwise the tooltip says why not.
    QCOMPARE(gpu->isEnabled(), menu->gpuUsable());
    if (!menu->gpuUsable())
      QVERIFY2(gpu->toolTip().startsWith("Not available"), qPrintable(gpu->toolTip()));
    cpu->trigger();
    QCOMPARE(menu->choice(), rfscope::BackendChoice::Cpu);
    QCOMPARE(controller->backendChoice(), rfscope::BackendChoice::Cpu);
    QCOMPARE(QSettings().value("compute/backend").toString(), QString("cpu"));
    window.reset();
    MainWindow reopened;
    QCOMPARE(reopened.findChild<rfscope::ui::BackendMenu*>()->choice(),
             rfscope::BackendChoice::Cpu);
    QSettings().remove("compute/backend");
  }

  void legendEntriesToggleTheirSeries() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    auto* plot = window.plotView();
    plot->setSeriesVisible("TrigRF", false);
    QVERIFY(!plot->seriesVisible(0));
    QVERIFY(plot->seriesVisible(1));
    plot->setSeriesVisible("TrigRF", true);
    QVERIFY(plot->seriesVisible(0));
  }

  void hoverDescribesTheNearestPointWithItsBand() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QCustomPlot* plot = window.plotView()->plot();
    plot->replot();
    const auto table = window.lastTable();
    const double x = table->column("sigma")->values[25];
    const double y = table->column("oprf-mean")->values[25];
    const QPointF pixel(plot->xAxis->coordToPixel(x), plot->yAxis->coordToPixel(y));
    const QString text = window.plotView()->describePointNear(pixel);
    QVERIFY2(text.contains("OPRF"), qPrintable(text));
    QVERIFY(text.contains(QString::number(x, 'g', 8)));
    QVERIFY(text.contains("band: ["));
    QVERIFY(window.plotView()->describePointNear(QPointF(-500, -500)).isEmpty());
  }

  void logAxesAndResetView() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    auto* view = window.plotView();
    view->setLogX(true);
    QCOMPARE(view->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    view->plot()->xAxis->setRange(0.3, 0.4);
    view->resetView();
    QVERIFY(view->plot()->xAxis->range().lower <= 0.1 + 1e-12);
    QVERIFY(view->plot()->xAxis->range().upper >= 1.0 - 1e-12);
  }

  void presetsConfigureTheExperimentAndTheTeachingText() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY(window.applyPreset("teach-positive-features-blow-up", &error));
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.parameterPanel()->parameters().integer("d"), 16);
    QCOMPARE(window.plotView()->seriesCount(), 2);
    const QString teaching = window.teachingPanel()->toPlainText();
    QVERIFY(teaching.contains("Log-variance vs σ"));
    QVERIFY(teaching.contains("FAVOR++"));
    // The preset's own text (what its figure shows) comes first, the experiment's after it.
    QVERIFY(teaching.startsWith("Why FAVOR+ needed FAVOR++"));
    QVERIFY(teaching.indexOf("About the experiment:") < teaching.indexOf("Log-variance vs σ"));
    QVERIFY(!window.applyPreset("no-such-preset", &error));
    QVERIFY(error.contains("no-such-preset"));
  }

  // A preset's claim sits under its plot with its verdict, and is checked again on every run:
  // at the preset's values it holds; at d = 4 OPRF is no longer below TrigRF from σ = 0.25 on.
  void presetClaimsShowTheirVerdictLiveAsParametersChange() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.claimText().isEmpty());  // an experiment's defaults claim nothing
    QString error;
    QVERIFY(window.applyPreset("crt-fig2-normal", &error));
    QVERIFY(finished.wait(20000));
    QVERIFY2(window.claimText().startsWith(QStringLiteral("✓ OPRF has the lowest variance")),
             qPrintable(window.claimText()));
    // The preset's own values: nothing "changed" (its mechanisms are listed in another order).
    QVERIFY2(!window.claimText().contains("still holds at"), qPrintable(window.claimText()));
    spinBoxOf(window.parameterPanel()->editor("d"))->setValue(4);
    QVERIFY(finished.wait(20000));
    const QString text = window.claimText();
    QVERIFY2(text.startsWith(QStringLiteral("✗ ")), qPrintable(text));
    QVERIFY2(text.contains("no longer holds at d = 4: OPRF below TrigRF for σ ≥ 0.25: OPRF "),
             qPrintable(text));
    QVERIFY2(text.contains(" above TrigRF "), qPrintable(text));
  }

  // Teaching presets explain their own figure (the experiment's text is background).
  void everyTeachingPresetHasItsOwnText() {
    for (const auto& preset : rfscope::allPresets()) {
      if (!preset.teaching) continue;
      const QString text = rfscope::ui::teachingText("preset-" + QString::fromStdString(preset.id));
      QVERIFY2(!text.trimmed().isEmpty(),
               qPrintable("no teaching text for preset " + QString::fromStdString(preset.id)));
    }
  }

  void everyMechanismAndExperimentHasABundledTeachingText() {
    QStringList ids;
    for (const auto* mechanism : rfscope::allMechanisms())
      ids << QString::fromStdString(mechanism->info().id);
    for (const auto* experiment : rfscope::allExperiments())
      ids << QString::fromStdString(experiment->info().id);
    for (const QString& id : ids) {
      QFile file(":/teaching/" + id + ".html");
      QVERIFY2(file.exists(), qPrintable("no bundled teaching text for " + id));
      QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(id));
      const QString bundled = QString::fromUtf8(file.readAll());
      QVERIFY2(!bundled.trimmed().isEmpty(), qPrintable("empty teaching text for " + id));
      QCOMPARE(rfscope::ui::teachingText(id), bundled);
    }
  }

  void everyRealDefaultSurvivesItsSpinBox() {
    // A QDoubleSpinBox rounds its value to its decimals: attention-precision's ε = 1e-4 ran as 0.
    for (const auto* experiment : rfscope::allExperiments()) {
      rfscope::ui::ParameterPanel panel;
      const auto specs = experiment->parameters();
      panel.setSpecs(specs, {});
      const rfscope::ParameterSet shown = panel.parameters();
      for (const auto& spec : specs) {
        const auto* value = std::get_if<double>(&spec.defaultValue);
        if (spec.type != rfscope::ParameterType::Real || !value || !shown.contains(spec.key))
          continue;
        QVERIFY2(std::abs(shown.real(spec.key) - *value) <= 1e-12 * std::abs(*value),
                 qPrintable(QString::fromStdString(experiment->info().id + " " + spec.key) + ": " +
                            QString::number(shown.real(spec.key))));
      }
    }
  }

  void everyPresetsRealValuesSurviveTheirSpinBoxes() {
    for (const rfscope::Preset& preset : rfscope::allPresets()) {
      const auto* experiment = rfscope::findExperiment(preset.experimentId);
      QVERIFY(experiment);
      std::vector<rfscope::ParameterError> errors;
      const rfscope::ParameterSet values = rfscope::presetParameters(preset, *experiment, errors);
      QVERIFY(errors.empty());
      rfscope::ui::ParameterPanel panel;
      const auto specs = experiment->parameters();
      panel.setSpecs(specs, values);
      const rfscope::ParameterSet shown = panel.parameters();
      for (const auto& spec : specs) {
        if (spec.type != rfscope::ParameterType::Real || !values.contains(spec.key) ||
            !shown.contains(spec.key))
          continue;
        const double value = values.real(spec.key);
        QVERIFY2(std::abs(shown.real(spec.key) - value) <= 1e-12 * std::abs(value),
                 qPrintable(QString::fromStdString(preset.id + " " + spec.key) + ": " +
                            QString::number(value, 'g', 17) + " shown as " +
                            QString::number(shown.real(spec.key), 'g', 17)));
      }
    }
  }

  void userPresetsRoundTripThroughSettings() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    auto* d = spinBoxOf(window.parameterPanel()->editor("d"));
    d->setValue(8);
    rfscope::ui::saveUserPreset("small d", window.currentSession());
    QVERIFY(rfscope::ui::userPresetNames().contains("small d"));
    QCOMPARE(rfscope::ui::loadUserPreset("small d").parameters.integer("d"), 8);
    rfscope::ui::removeUserPreset("small d");
    QVERIFY(!rfscope::ui::userPresetNames().contains("small d"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, rfscope::ui::loadUserPreset("small d"));
  }

  void keyboardSteppingChangesParametersAndReruns() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QTest::keyClick(&window, Qt::Key_Up, Qt::ControlModifier);
    QCOMPARE(window.parameterPanel()->parameters().integer("d"), 128);
    QTest::keyClick(&window, Qt::Key_BracketRight, Qt::ControlModifier);
    QCOMPARE(window.parameterPanel()->parameters().integer("seed"), 2);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.lastTable()->hints.title.find("d = 128") != std::string::npos);
    const double before = window.parameterPanel()->parameters().real("sigma-max");
    QVERIFY(window.parameterPanel()->stepParameter("sigma-max", -2));
    QVERIFY(window.parameterPanel()->parameters().real("sigma-max") < before);
    QVERIFY(!window.parameterPanel()->stepParameter("mechanisms", 1));
  }

  // Issue: closing the Parameters dock could not be undone from the View menu, the closed state
  // survived a restart, and screenshots took whatever layout the last session left.
  void theViewMenuBringsAClosedParametersDockBackAndScreenshotsUseTheDefaultLayout() {
    QSettings().remove("window/state");
    auto window = std::make_unique<MainWindow>();
    window->show();
    auto* dock = window->findChild<QDockWidget*>("parametersDock");
    QVERIFY(dock && dock->isVisible());
    dock->close();  // its title bar's close button
    QVERIFY(!dock->isVisible());
    QMenu* view = nullptr;
    for (QAction* a : window->menuBar()->actions())
      if (a->text() == "&View") view = a->menu();
    QVERIFY(view);
    QAction* toggle = nullptr;
    for (QAction* a : view->actions())
      if (QString(a->text()).remove(QChar('&')) == "Parameters Panel") toggle = a;
    QVERIFY(toggle && toggle->isCheckable() && !toggle->isChecked());
    QCOMPARE(toggle->shortcut(), QKeySequence(tr("F2")));
    toggle->trigger();
    QVERIFY(dock->isVisible());
    // Closed again and remembered by a normal window: the next normal one restores that, a
    // screenshot's does not, and does not overwrite it.
    dock->close();
    window->close();
    window.reset();
    {
      MainWindow restored;
      restored.show();
      QVERIFY(!restored.findChild<QDockWidget*>("parametersDock")->isVisible());
    }
    const QByteArray saved = QSettings().value("window/state").toByteArray();
    {
      MainWindow screenshot(rfscope::ui::SavedLayout::Ignore);
      screenshot.show();
      auto* shown = screenshot.findChild<QDockWidget*>("parametersDock");
      QVERIFY(shown->isVisible());
      shown->close();
      screenshot.close();
    }
    QCOMPARE(QSettings().value("window/state").toByteArray(), saved);
    QSettings().remove("window/state");
  }

  // Issue: the window title never showed the active preset.
  void theWindowTitleNamesThePresetOrTheExperimentShown() {
    MainWindow window;
    const rfscope::Preset& preset = rfscope::allPresets().front();
    QString error;
    QVERIFY2(window.applyPreset(preset.id, &error), qPrintable(error));
    QCOMPARE(window.windowTitle(), QString::fromStdString(preset.title) + " — RFScope");
    const rfscope::Experiment& experiment = *rfscope::allExperiments().back();
    window.selectExperiment(experiment.info().id);
    QCOMPARE(window.windowTitle(), QString::fromStdString(experiment.info().title) + " — RFScope");
  }

  void presentationModeEnlargesTheFonts() {
    MainWindow window;
    window.show();
    const int before = window.plotView()->plot()->xAxis->labelFont().pointSize();
    window.setPresentationMode(true);
    QVERIFY(window.plotView()->plot()->xAxis->labelFont().pointSize() > before);
    window.setPresentationMode(false);
    QCOMPARE(window.plotView()->plot()->xAxis->labelFont().pointSize(), before);
  }

  void partialTablesStreamIntoThePlot() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QSignalSpy partial(window.runController(), &rfscope::ui::RunController::partialResult);
    rfscope::ParameterSet params = window.parameterPanel()->parameters();
    params.set("sigma-steps", std::int64_t{2000});
    params.set("pairs", std::int64_t{2000});
    window.parameterPanel()->setParameters(params);
    window.runController()->start(window.currentExperiment(),
                                  window.parameterPanel()->parameters());
    QVERIFY(partial.wait(20000));
    const auto first = partial.first().first().value<std::shared_ptr<const rfscope::Table>>();
    QVERIFY(first->rowCount() > 0 && first->rowCount() < 2000);
    window.runController()->cancel();
  }
};

QTEST_MAIN(InteractionTest)
#include "interaction_test.moc"
