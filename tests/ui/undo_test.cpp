// Edit → Undo / Redo over the settings: parameter edits and preset loads are steps, the keystrokes
// of a value typed into one field merge into one step, and undo restores the panel's values (and
// the experiment and preset) and runs them again.

#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include "core/experiments/preset.h"
#include "tests/ui/widget_lookup.h"
#include "ui/main_window.h"
#include "ui/parameter_history.h"
#include "ui/parameter_panel.h"

using rfscope::ui::HistoryStep;
using rfscope::ui::MainWindow;
using rfscope::ui::ParameterHistory;
using rfscope::ui::ParameterSnapshot;

namespace {

ParameterSnapshot snapshotWith(std::int64_t d, std::int64_t seed = 1) {
  rfscope::ParameterSet parameters;
  parameters.set("d", d);
  parameters.set("seed", seed);
  return {"variance-vs-sigma", parameters, ""};
}

}  // namespace

class UndoTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void editsOfOneFieldMergeWithinTheWindowOnly() {
    using namespace std::chrono_literals;
    ParameterHistory history(1500ms);
    const auto t0 = ParameterHistory::Clock::now();
    history.record(snapshotWith(64), HistoryStep::Load, t0);
    history.record(snapshotWith(1), HistoryStep::Edit, t0 + 100ms);  // typing "128"
    history.record(snapshotWith(12), HistoryStep::Edit, t0 + 200ms);
    history.record(snapshotWith(128), HistoryStep::Edit, t0 + 300ms);
    QCOMPARE(history.size(), std::size_t{2});
    QCOMPARE(history.undoText(), std::string("d = 128"));
    history.record(snapshotWith(128, 2), HistoryStep::Edit, t0 + 400ms);  // another field
    history.record(snapshotWith(128, 3), HistoryStep::Edit, t0 + 5s);     // later: a new step
    QCOMPARE(history.size(), std::size_t{4});
    QCOMPARE(history.undo()->parameters.integer("seed"), 2);
    QCOMPARE(history.undo()->parameters.integer("d"), 128);
    QCOMPARE(history.undo()->parameters.integer("d"), 64);
    QVERIFY(!history.canUndo());
    QCOMPARE(history.redoText(), std::string("d = 128"));
    QCOMPARE(history.redo()->parameters.integer("d"), 128);
    // An edit after an undo drops the steps that could be redone, and does not merge.
    history.record(snapshotWith(256), HistoryStep::Edit, t0 + 5100ms);
    QVERIFY(!history.canRedo());
    QCOMPARE(history.size(), std::size_t{3});
    // Typed back to the value before the step: no step at all.
    history.record(snapshotWith(128), HistoryStep::Edit, t0 + 5200ms);
    QCOMPARE(history.size(), std::size_t{2});
    QCOMPARE(history.current()->parameters.integer("d"), 128);
    // Equal settings record nothing; a load never merges.
    history.record(snapshotWith(128), HistoryStep::Edit, t0 + 5300ms);
    history.record(snapshotWith(64), HistoryStep::Load, t0 + 5400ms);
    history.record(snapshotWith(32), HistoryStep::Load, t0 + 5500ms);
    QCOMPARE(history.size(), std::size_t{4});
  }

  void undoRestoresTypedValuesAndRunsThem() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QAction* undo = menuAction(window, "Edit", "Undo");
    QAction* redo = menuAction(window, "Edit", "Redo");
    QVERIFY(undo && redo);
    QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
    QVERIFY(redo->shortcuts().contains(QKeySequence("Ctrl+Shift+Z")));
    QVERIFY(!undo->isEnabled());

    // Typing 128 into d: three keystrokes, one step.
    QSpinBox* d = spinBoxOf(window.parameterPanel()->editor("d"));
    d->setFocus();
    d->selectAll();
    QTest::keyClicks(d, "128");
    QCOMPARE(d->value(), 128);
    QVERIFY(finished.wait(10000));
    QVERIFY(undo->isEnabled());
    QCOMPARE(QString(undo->text()).remove('&'), QString("Undo d = 128"));

    undo->trigger();
    QCOMPARE(d->value(), 64);  // not 12 or 1: the keystrokes were one step
    QVERIFY(!undo->isEnabled());
    QVERIFY(redo->isEnabled());
    QVERIFY(finished.wait(10000));  // run again
    QVERIFY(window.lastTable()->hints.title.find("d = 64") != std::string::npos);

    redo->trigger();
    QCOMPARE(d->value(), 128);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.lastTable()->hints.title.find("d = 128") != std::string::npos);
    QVERIFY(!redo->isEnabled());
  }

  void undoTakesBackAPresetAndItsExperiment() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QVERIFY(window.parameterPanel()->stepParameter("seed", 1));
    const rfscope::ParameterSet before = window.parameterPanel()->parameters();
    const QString title = window.windowTitle();
    const rfscope::Preset* preset = nullptr;
    for (const rfscope::Preset& p : rfscope::allPresets())
      if (p.experimentId != "variance-vs-sigma") preset = &p;
    QVERIFY(preset);
    QVERIFY(window.applyPreset(preset->id));
    QCOMPARE(window.currentExperiment()->info().id, preset->experimentId);
    QAction* undo = menuAction(window, "Edit", "Undo");
    QCOMPARE(QString(undo->text()).remove('&'),
             "Undo preset " + QString::fromStdString(preset->id));

    undo->trigger();
    QCOMPARE(window.currentExperiment()->info().id, std::string("variance-vs-sigma"));
    QCOMPARE(window.parameterPanel()->parameters(), before);
    QCOMPARE(window.windowTitle(), title);
    QVERIFY(window.exportBaseName() == "variance-vs-sigma");  // no preset shown any more
    QAction* redo = menuAction(window, "Edit", "Redo");
    redo->trigger();
    QCOMPARE(window.exportBaseName(), QString::fromStdString(preset->id));
    undo->trigger();
    undo->trigger();  // the seed step
    QCOMPARE(window.parameterPanel()->parameters().integer("seed"), 1);
  }
};

QTEST_MAIN(UndoTest)
#include "undo_test.moc"
