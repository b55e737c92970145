// What the window tells the user while they work: typed values apply without Enter, invalid ones
// are reported under their control in the labels shown while the last valid run stays (marked as
// belonging to the previous settings), streamed and cancelled results are marked partial, warnings
// are shown whole, progress has a percentage, export names and teaching texts follow the settings.

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QtTest>

#include "tests/ui/widget_lookup.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"
#include "ui/teaching_panel.h"

using rfscope::ui::MainWindow;
using rfscope::ui::PlotFreshness;

namespace {

QLineEdit* lineEditOf(QWidget* editor) {
  return editor ? editor->findChild<QLineEdit*>() : nullptr;
}

// Replaces a spin box's text by typing, without pressing Enter or leaving the field.
void typeInto(QWidget* editor, const QString& text) {
  QLineEdit* line = lineEditOf(editor);
  QVERIFY(line);
  line->setFocus();
  line->selectAll();
  QTest::keyClick(line, Qt::Key_Backspace);
  QTest::keyClicks(line, text);
}

}  // namespace

class FeedbackTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void aTypedValueRerunsWithoutEnter() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    typeInto(window.parameterPanel()->editor("d"), "32");
    // No Enter, no focus change: the quiet period alone starts the run.
    QVERIFY(finished.wait(10000));
    QVERIFY2(window.lastTable()->hints.title.find("d = 32") != std::string::npos,
             window.lastTable()->hints.title.c_str());
    QCOMPARE(window.parameterPanel()->parameters().integer("d"), 32);
  }

  void anInvalidTypedValueIsReportedAndTheLastValidRunStays() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    const auto validTable = window.lastTable();
    // d = 0 is not clamped back to 1 nor reverted to 64: it is reported.
    typeInto(window.parameterPanel()->editor("d"), "0");
    QTRY_VERIFY_WITH_TIMEOUT(!window.parameterPanel()->errorText("d").isEmpty(), 3000);
    QVERIFY2(window.parameterPanel()->errorText("d").contains("0 is outside [1, 1024]"),
             qPrintable(window.parameterPanel()->errorText("d")));
    QCOMPARE(spinBoxOf(window.parameterPanel()->editor("d"))->value(), 0);
    QVERIFY2(window.statusMessage().contains("Dimension d"), qPrintable(window.statusMessage()));
    QVERIFY(!window.runController()->isRunning());
    QTest::qWait(300);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(window.lastTable(), validTable);  // the last valid run stays on screen
    QCOMPARE(window.plotView()->seriesCount(), 3);
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Stale);
    QVERIFY(window.plotView()->freshnessText().contains("invalid"));

    // A negative σ keeps its sign and is reported too.
    typeInto(window.parameterPanel()->editor("d"), "64");
    typeInto(window.parameterPanel()->editor("sigma-min"), "-0.5");
    auto* sigma = window.parameterPanel()->editor("sigma-min")->findChild<QDoubleSpinBox*>();
    QCOMPARE(sigma->value(), -0.5);
    QTRY_VERIFY_WITH_TIMEOUT(window.parameterPanel()->errorText("sigma-min").contains("-0.5"),
                             3000);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Stale);

    // Half-typed text ("-") is no value: said so under the control, nothing else changes.
    typeInto(window.parameterPanel()->editor("sigma-min"), "-");
    QVERIFY(window.parameterPanel()->errorText("sigma-min").contains("not a number"));

    // Back to a valid value: the run happens and the marks go.
    typeInto(window.parameterPanel()->editor("sigma-min"), "0.2");
    QVERIFY(finished.wait(10000));
    QVERIFY(window.parameterPanel()->errorText("sigma-min").isEmpty());
    QVERIFY(window.parameterPanel()->errorText("d").isEmpty());
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Current);
    QVERIFY(window.lastTable() != validTable);
  }

  void crossFieldMessagesNameTheLabelsShown() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    typeInto(window.parameterPanel()->editor("sigma-min"), "2");
    typeInto(window.parameterPanel()->editor("sigma-max"), "1");
    QTRY_VERIFY_WITH_TIMEOUT(!window.parameterPanel()->errorText("sigma-max").isEmpty(), 3000);
    const QString message = window.parameterPanel()->errorText("sigma-max");
    QVERIFY2(message.contains("σ from"), qPrintable(message));
    QVERIFY2(!message.contains("sigma-min") && !message.contains("parameter '"),
             qPrintable(message));
    QVERIFY2(window.statusMessage().contains("σ to"), qPrintable(window.statusMessage()));
  }

  void streamedAndCancelledResultsAreMarkedPartial() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Current);
    // A long run: its partial tables stream in marked as such.
    rfscope::ParameterSet params = window.parameterPanel()->parameters();
    params.set("sigma-steps", std::int64_t{2000});
    params.set("pairs", std::int64_t{2000});
    window.parameterPanel()->setParameters(params);
    emit window.parameterPanel()->parametersChanged();
    QSignalSpy partial(window.runController(), &rfscope::ui::RunController::partialResult);
    QVERIFY(partial.wait(20000));
    QTRY_COMPARE_WITH_TIMEOUT(window.plotView()->freshness(), PlotFreshness::Partial, 5000);
    QVERIFY(window.plotView()->freshnessText().contains("still running"));
    QTRY_VERIFY_WITH_TIMEOUT(window.progressText().contains("%"), 5000);
    // Cancelled part-way: what came stays, labelled partial with where it stopped.
    window.runController()->cancel();
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Partial);
    QVERIFY2(window.plotView()->freshnessText().contains("cancelled at"),
             qPrintable(window.plotView()->freshnessText()));
    QCOMPARE(finished.count(), 1);
    // A change whose result is slow marks the plot as belonging to the previous settings.
    params.set("sigma-steps", std::int64_t{50});
    params.set("pairs", std::int64_t{100});
    window.parameterPanel()->setParameters(params);
    emit window.parameterPanel()->parametersChanged();
    QVERIFY(finished.wait(10000));
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Current);
  }

  void slowResultsOfNewSettingsLeaveTheOldPlotMarkedStale() {
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    // Monte Carlo at every σ: the first partial table takes a while to come.
    rfscope::ParameterSet params = window.parameterPanel()->parameters();
    params.set("method", std::string("monte-carlo"));
    params.set("trials", std::int64_t{20000000});
    params.set("pairs", std::int64_t{200});
    window.parameterPanel()->setParameters(params);
    emit window.parameterPanel()->parametersChanged();
    QTRY_COMPARE_WITH_TIMEOUT(window.plotView()->freshness(), PlotFreshness::Stale, 3000);
    QVERIFY(window.plotView()->freshnessText().startsWith("previous settings"));
    window.runController()->cancel();
    QCOMPARE(window.plotView()->freshness(), PlotFreshness::Stale);  // nothing new came
  }

  void warningsAreShownWholeUnderThePlot() {
    MainWindow window;
    window.resize(900, 600);  // narrow: the status bar could not hold them
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(window.applyPreset("teach-heavy-tails"));
    QVERIFY(finished.wait(20000));
    const QString warnings = window.warningsText();
    QVERIFY2(warnings.contains("a single trial carries more than 10% of the sum of squares"),
             qPrintable(warnings));
    auto* bar = window.findChild<QFrame*>("warningsBar");
    QVERIFY(bar && bar->isVisible());
    auto* label = bar->findChild<QLabel*>();
    QVERIFY(label->wordWrap());
    QVERIFY(label->height() >= label->heightForWidth(label->width()));  // nothing cut off
    // The preset shows its claim on a log y axis.
    QVERIFY(window.plotView()->logY());
    QCOMPARE(window.progressText(), QString("100%"));
    // A run without warnings hides the area.
    QVERIFY(window.applyPreset("crt-fig2-normal"));
    QVERIFY(finished.wait(20000));
    QVERIFY(window.warningsText().isEmpty());
  }

  void exportNamesComeFromThePresetOrTheExperiment() {
    MainWindow window;
    QCOMPARE(window.exportBaseName(), QString("variance-vs-sigma"));
    QVERIFY(window.applyPreset("simrf-fig6"));
    QCOMPARE(window.exportBaseName(), QString("simrf-fig6"));
    window.selectExperiment("conformity");
    QCOMPARE(window.exportBaseName(), QString("conformity"));
  }

  void theTeachingTextFollowsTheRegimeAndKernel() {
    MainWindow window;
    window.show();
    auto* regime = qobject_cast<QComboBox*>(window.parameterPanel()->editor("regime"));
    regime->setCurrentIndex(regime->findData("sphere"));
    auto* kernel = qobject_cast<QComboBox*>(window.parameterPanel()->editor("kernel"));
    kernel->setCurrentIndex(kernel->findData("softmax"));
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    const QString text = window.teachingPanel()->toPlainText();
    QVERIFY2(text.contains("uniform on the sphere"), qPrintable(text));
    QVERIFY(!text.contains("N(0, σ²I_d)"));
    QVERIFY(text.contains("softmax kernel SM(x, y) = exp(xᵀy)"));
    QVERIFY(!text.contains("{{"));
    const qreal normal = window.teachingPanel()->font().pointSizeF();
    window.setPresentationMode(true);
    QVERIFY(window.teachingPanel()->font().pointSizeF() > normal * 1.3);
    window.setPresentationMode(false);
    QCOMPARE(window.teachingPanel()->font().pointSizeF(), normal);
  }

  void aSpecialValueSaysWhatItMeans() {
    MainWindow window;
    window.selectExperiment("mse-ratio-vs-v");
    auto* features = window.parameterPanel()->editor("features");
    auto* note = features->findChild<QLabel*>("specialValue");
    QVERIFY(note);
    QCOMPARE(note->text(), QString("0 means M = d"));
    QVERIFY(note->isVisibleTo(features));  // the default 0 means M = d
    spinBoxOf(features)->setValue(64);
    QVERIFY(!note->isVisibleTo(features));
  }
};

QTEST_MAIN(FeedbackTest)
#include "feedback_test.moc"
