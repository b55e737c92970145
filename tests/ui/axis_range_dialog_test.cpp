// Exact axis ranges: View → Set Axis Ranges… (and the plot's context menu) opens a dialog that
// checks what is typed — numbers, from below to, limits above 0 on log axes — and applies it.

#include <qcustomplot.h>

#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "tests/ui/widget_lookup.h"
#include "ui/axis_range_dialog.h"
#include "ui/main_window.h"
#include "ui/plot_view.h"

using rfscope::ui::AxisRangeDialog;
using rfscope::ui::AxisRanges;
using rfscope::ui::MainWindow;
using rfscope::ui::SavedLayout;

namespace {

void retype(QLineEdit* edit, const QString& text) {
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

QPushButton* okOf(AxisRangeDialog* dialog) {
  return dialog->buttons()->button(QDialogButtonBox::Ok);
}

AxisRangeDialog* openFromTheViewMenu(MainWindow& window) {
  QAction* action = menuAction(window, "View", "Set Axis Ranges…");
  if (!action) return nullptr;
  action->trigger();
  for (auto* dialog : window.findChildren<AxisRangeDialog*>())
    if (dialog->isVisible()) return dialog;
  return nullptr;
}

}  // namespace

class AxisRangeDialogTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void problemsAreNamed() {
    using rfscope::ui::axisRangesProblem;
    QVERIFY(axisRangesProblem({0, 1, -5, 5}, false, false).isEmpty());
    QVERIFY(axisRangesProblem({1, 1, 0, 1}, false, false).contains("below"));
    QVERIFY(axisRangesProblem({2, 1, 0, 1}, false, false).contains("x from (2)"));
    QVERIFY(axisRangesProblem({0, 1, 0, 1}, false, true).contains("y axis is logarithmic"));
    QVERIFY(axisRangesProblem({0, 1, 1e-3, 1}, true, false).contains("x axis is logarithmic"));
    QVERIFY(axisRangesProblem({1e-3, 1, 1e-8, 1}, true, true).isEmpty());
    QVERIFY(axisRangesProblem({0, std::nan(""), 0, 1}, false, false).contains("finite"));
    QCOMPARE(rfscope::ui::parseAxisLimit(" 1e-3 ").value_or(0), 1e-3);
    QVERIFY(!rfscope::ui::parseAxisLimit("1e-3x").has_value());
    QVERIFY(!rfscope::ui::parseAxisLimit("inf").has_value());
  }

  void typedRangesAreAppliedAndKeptUntilReset() {
    MainWindow window(SavedLayout::Ignore);
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    auto* plot = window.plotView()->plot();
    const QCPRange fitted = plot->xAxis->range();
    AxisRangeDialog* dialog = openFromTheViewMenu(window);
    QVERIFY(dialog);
    // It opens on the ranges shown.
    const double shown = rfscope::ui::parseAxisLimit(dialog->xLowerEdit()->text()).value();
    QVERIFY2(std::abs(shown - fitted.lower) <= 1e-5 * std::abs(fitted.lower),
             qPrintable(dialog->xLowerEdit()->text()));
    QVERIFY(okOf(dialog)->isEnabled());
    retype(dialog->xLowerEdit(), "0.25");
    retype(dialog->xUpperEdit(), "0.75");
    retype(dialog->yLowerEdit(), "-40");
    retype(dialog->yUpperEdit(), "10");
    QVERIFY(dialog->problem().isEmpty());
    QTest::mouseClick(okOf(dialog), Qt::LeftButton);
    QCOMPARE(plot->xAxis->range().lower, 0.25);
    QCOMPARE(plot->xAxis->range().upper, 0.75);
    QCOMPARE(plot->yAxis->range().lower, -40.0);
    QCOMPARE(plot->yAxis->range().upper, 10.0);
    // Kept through the next run (as a zoom is), forgotten by Reset View.
    QTest::keyClick(&window, Qt::Key_BracketRight, Qt::ControlModifier);  // next seed
    QVERIFY(finished.wait(10000));
    QCOMPARE(plot->xAxis->range().lower, 0.25);
    QCOMPARE(plot->yAxis->range().upper, 10.0);
    menuAction(window, "View", "Reset View")->trigger();
    QVERIFY(std::abs(plot->xAxis->range().lower - fitted.lower) < 1e-9);
  }

  void invalidRangesAreRefusedWithTheReason() {
    MainWindow window(SavedLayout::Ignore);
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    AxisRangeDialog* dialog = openFromTheViewMenu(window);
    QVERIFY(dialog);
    retype(dialog->xLowerEdit(), "abc");
    QVERIFY(!okOf(dialog)->isEnabled());
    QVERIFY2(dialog->problem().contains("'abc' is not a number"), qPrintable(dialog->problem()));
    retype(dialog->xLowerEdit(), "2");
    retype(dialog->xUpperEdit(), "1");
    QVERIFY(!okOf(dialog)->isEnabled());
    QVERIFY2(dialog->problem().contains("must be below"), qPrintable(dialog->problem()));
    dialog->reject();

    // On a log y axis (View → Logarithmic y Axis), 0 and negative limits are refused.
    menuAction(window, "View", "Logarithmic y Axis")->trigger();
    QVERIFY(window.plotView()->logY());
    dialog = openFromTheViewMenu(window);
    QVERIFY(dialog);
    QVERIFY(okOf(dialog)->isEnabled());
    retype(dialog->yLowerEdit(), "0");
    QVERIFY(!okOf(dialog)->isEnabled());
    QVERIFY2(dialog->problem().contains("y axis is logarithmic") &&
                 dialog->problem().contains("above 0"),
             qPrintable(dialog->problem()));
    const QCPRange before = window.plotView()->plot()->yAxis->range();
    QTest::keyClick(dialog->yLowerEdit(), Qt::Key_Return);  // Enter does not apply it either
    QCOMPARE(window.plotView()->plot()->yAxis->range(), before);
  }

  void thePlotsContextMenuOffersTheSameAction() {
    MainWindow window(SavedLayout::Ignore);
    std::unique_ptr<QMenu> menu(window.plotView()->makeContextMenu());
    QVERIFY(menu->actions().contains(window.plotView()->axisRangesAction()));
    QVERIFY(menuOf(window, "View")->actions().contains(window.plotView()->axisRangesAction()));
    QCOMPARE(window.plotView()->plot()->contextMenuPolicy(), Qt::CustomContextMenu);
  }
};

QTEST_MAIN(AxisRangeDialogTest)
#include "axis_range_dialog_test.moc"
