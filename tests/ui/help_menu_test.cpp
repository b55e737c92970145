// Help menu: the keyboard shortcuts read from the window's actions (an action added later is
// listed too), and About with the versions of the libraries, the SIMD target and the backends.

#include <qcustomplot.h>

#include <Eigen/Core>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "core/montecarlo/simd_target.h"
#include "tests/ui/widget_lookup.h"
#include "ui/about_dialog.h"
#include "ui/main_window.h"
#include "ui/shortcuts_dialog.h"

using rfscope::ui::MainWindow;
using rfscope::ui::SavedLayout;

namespace {

// The rows of the open shortcuts dialog as "keys | action | menu".
QStringList shortcutRows(MainWindow& window) {
  QStringList rows;
  auto* dialog = window.findChild<rfscope::ui::ShortcutsDialog*>();
  if (!dialog) return rows;
  const QTableWidget* table = dialog->table();
  for (int row = 0; row < table->rowCount(); ++row)
    rows << table->item(row, 0)->text() + " | " + table->item(row, 1)->text() + " | " +
                table->item(row, 2)->text();
  return rows;
}

}  // namespace

class HelpMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void theShortcutsDialogListsEveryShortcutOfTheWindow() {
    MainWindow window(SavedLayout::Ignore);
    window.show();
    QAction* open = menuAction(window, "Help", "Keyboard Shortcuts…");
    QVERIFY(open);
    open->trigger();
    auto* dialog = window.findChild<rfscope::ui::ShortcutsDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    const QStringList rows = shortcutRows(window);
    // Every action of the window that has a shortcut, with its words.
    int withShortcut = 0;
    for (const QAction* action : window.findChildren<QAction*>()) {
      if (action->shortcut().isEmpty()) continue;
      ++withShortcut;
      QStringList all;  // every key of it (Undo: Ctrl+Z and Alt+Backspace)
      for (const QKeySequence& keys : action->shortcuts())
        all << keys.toString(QKeySequence::NativeText);
      const QString keys = all.join(", ");
      const QString text = shownText(action);
      QVERIFY2(rows.filter(keys + " | " + text + " |").size() == 1,
               qPrintable(keys + " " + text + " missing from:\n" + rows.join('\n')));
    }
    QCOMPARE(rows.size(), withShortcut);
    QVERIFY(withShortcut >= 20);
    QVERIFY(rows.contains(QKeySequence("Ctrl+Shift+L").toString(QKeySequence::NativeText) +
                          " | Logarithmic y Axis | View"));
    QVERIFY(rows.contains("F2 | Parameters Panel | View"));
    QVERIFY(rows.contains("F11 | Presentation Mode | View"));
    dialog->close();

    // Generated from the actions: one added later is listed at the next opening.
    QAction* added = menuOf(window, "View")->addAction("Made-up Action");
    added->setShortcut(QKeySequence("Ctrl+Alt+J"));
    open->trigger();
    QTRY_VERIFY(shortcutRows(window).contains(
        QKeySequence("Ctrl+Alt+J").toString(QKeySequence::NativeText) +
        " | Made-up Action | View"));
  }

  void aboutNamesTheLibrariesTheSimdTargetAndTheBackends() {
    MainWindow window(SavedLayout::Ignore);
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    // A Monte Carlo run: its backend is known.
    QAction* preset = menuAction(window, "Presets", "Teaching — what a heavy tail looks like");
    QVERIFY(preset);
    preset->trigger();
    QVERIFY(finished.wait(20000));
    QAction* about = menuAction(window, "Help", "About RFScope…");
    QVERIFY(about);
    about->trigger();
    auto* dialog = window.findChild<rfscope::ui::AboutDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    // The GPU probe answers off the GUI thread; the dialog follows it.
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->text().contains("looking for a CUDA device"), 10000);
    const QString text = dialog->text();
    const QString eigen = QString("Eigen: %1.%2.%3")
                              .arg(EIGEN_WORLD_VERSION)
                              .arg(EIGEN_MAJOR_VERSION)
                              .arg(EIGEN_MINOR_VERSION);
    for (const QString& line :
         {QString("Qt: ") + qVersion(), QString("QCustomPlot: ") + QCUSTOMPLOT_VERSION_STR, eigen,
          QString("SIMD target: ") + QString::fromStdString(rfscope::simdTargetId()),
          QString("Last run's backend: cpu")})
      QVERIFY2(text.contains(line), qPrintable(line + " missing from:\n" + text));
    QVERIFY2(text.contains(QRegularExpression("^oneTBB: 20\\d\\d\\.\\d+",
                                              QRegularExpression::MultilineOption)),
             qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression("^CUDA GPU: (usable|not available): .+",
                                              QRegularExpression::MultilineOption)),
             qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression("^CPU backend: CPU \\(\\w+\\), \\d+ threads",
                                              QRegularExpression::MultilineOption)),
             qPrintable(text));
    QVERIFY(text.contains("Monte Carlo runs on: Automatic"));
  }
};

QTEST_MAIN(HelpMenuTest)
#include "help_menu_test.moc"
