// View → Data Table: the plotted table in a read-only dock, updated with each result (a partial
// one too, keeping the selection), empty cells where there is no value, and Ctrl+C / Copy All
// copying tab-separated text with headers.

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>
#include <limits>

#include "tests/ui/widget_lookup.h"
#include "ui/data_table_dock.h"
#include "ui/data_table_model.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"

using rfscope::ui::DataTableDock;
using rfscope::ui::MainWindow;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::shared_ptr<const rfscope::Table> sampleTable(int rows) {
  auto table = std::make_shared<rfscope::Table>();
  std::vector<double> x, y, z;
  for (int i = 0; i < rows; ++i) {
    x.push_back(i + 1);
    y.push_back(i == 1 ? kNaN : 0.1 * (i + 1));
    z.push_back(1000000.0 * (i + 1));
  }
  table->addColumn("dataset", "Dataset", x);
  table->addColumn("acc", "Accuracy", y);
  table->addColumn("count", "", z);
  table->hints.title = "Sample";
  table->hints.xColumn = "dataset";
  table->hints.xLabel = "Dataset";
  table->hints.xValueNames = {{1, "wine"}, {2, "iris\tdata"}};
  return table;
}

}  // namespace

class DataTableTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void theViewMenuShowsThePlottedTable() {
    MainWindow window(rfscope::ui::SavedLayout::Ignore);
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QAction* toggle = menuAction(window, "View", "Data Table");
    QVERIFY(toggle && toggle->isCheckable());
    QCOMPARE(toggle->shortcut(), QKeySequence("Ctrl+T"));
    DataTableDock* dock = window.dataTable();
    QVERIFY(!dock->isVisible());
    toggle->trigger();
    QVERIFY(dock->isVisible());

    const auto* model = dock->model();
    const rfscope::Table& table = *window.lastTable();
    QCOMPARE(model->rowCount(), static_cast<int>(table.rowCount()));
    QCOMPARE(model->columnCount(), static_cast<int>(table.columns.size()));
    QCOMPARE(model->headerData(0, Qt::Horizontal).toString(),
             QString::fromStdString(table.columns[0].label));
    QCOMPARE(model->index(3, 1).data(Qt::UserRole).toDouble(), table.columns[1].values[3]);
    QVERIFY(dock->view()->editTriggers() == QAbstractItemView::NoEditTriggers);

    // Ctrl+C copies the selection: headers, then the cells, tab-separated, every digit.
    dock->view()->selectionModel()->select(QItemSelection(model->index(2, 0), model->index(3, 1)),
                                           QItemSelectionModel::Select);
    QVERIFY(dock->copyAction()->isEnabled());
    QCOMPARE(dock->copyAction()->shortcut(), QKeySequence(QKeySequence::Copy));
    dock->copyAction()->trigger();
    const QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0],
             QString::fromStdString(table.columns[0].label + "\t" + table.columns[1].label));
    const QStringList cells = lines[1].split('\t');
    QCOMPARE(cells.size(), 2);
    QCOMPARE(cells[0].toDouble(), table.columns[0].values[2]);  // reads back exactly
    QCOMPARE(cells[1].toDouble(), table.columns[1].values[2]);

    dock->copyAllAction()->trigger();
    const QStringList all = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(all.size(), static_cast<int>(table.rowCount()) + 1);
    QCOMPARE(all[0].split('\t').size(), static_cast<int>(table.columns.size()));

    // The next run's table replaces it.
    QVERIFY(window.parameterPanel()->stepParameter("sigma-steps", -10));
    QVERIFY(finished.wait(10000));
    QCOMPARE(model->rowCount(), static_cast<int>(window.lastTable()->rowCount()));
    QCOMPARE(model->rowCount(), 40);
  }

  void missingValuesAreEmptyAndNamesFollowX() {
    DataTableDock dock;
    dock.setTable(sampleTable(3));
    const auto* model = dock.model();
    QCOMPARE(model->columnCount(), 4);  // dataset, its names, acc, count
    QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QString("Dataset (name)"));
    QCOMPARE(model->headerData(3, Qt::Horizontal).toString(), QString("count"));  // no label
    QCOMPARE(model->index(0, 1).data().toString(), QString("wine"));
    QCOMPARE(model->index(1, 2).data().toString(), QString());  // NaN: an empty cell
    QCOMPARE(model->index(0, 2).data().toString(), QString("0.1"));
    QCOMPARE(model->index(2, 1).data().toString(), QString());  // x value without a name
    dock.copyAllAction()->trigger();
    QCOMPARE(QApplication::clipboard()->text(),
             QString("Dataset\tDataset (name)\tAccuracy\tcount\n"
                     "1\twine\t0.1\t1000000\n"
                     "2\tiris data\t\t2000000\n"  // a tab inside a name would split it
                     "3\t\t0.30000000000000004\t3000000\n"));
  }

  void aGrowingPartialTableKeepsTheSelection() {
    DataTableDock dock;
    dock.setTable(sampleTable(2), "partial");
    auto* selection = dock.view()->selectionModel();
    selection->select(dock.model()->index(1, 3), QItemSelectionModel::Select);
    dock.setTable(sampleTable(5), "partial");
    QCOMPARE(dock.model()->rowCount(), 5);
    QVERIFY(selection->isSelected(dock.model()->index(1, 3)));
    dock.copyAction()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), QString("count\n2000000\n"));
    dock.setTable(nullptr);
    QCOMPARE(dock.model()->rowCount(), 0);
    QVERIFY(!dock.copyAllAction()->isEnabled());
  }
};

QTEST_MAIN(DataTableTest)
#include "data_table_test.moc"
