#pragma once
// View → Data Table: the plotted table in a dock, read-only, updated with every (partial) result.
// Ctrl+C copies the selected cells as tab-separated text with a line of column headers (ready to
// paste into a spreadsheet), with every digit of each value; "Copy All" copies the whole table.

#include <QDockWidget>
#include <functional>
#include <memory>

#include "core/experiments/table.h"

class QAction;
class QLabel;
class QTableView;

namespace rfscope::ui {

class DataTableModel;

class DataTableDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit DataTableDock(QWidget* parent = nullptr);

  // The table shown (null: none); note says what it is ("partial", "previous settings").
  void setTable(std::shared_ptr<const Table> table, const QString& note = {});

  QTableView* view() const { return view_; }
  DataTableModel* model() const { return model_; }
  QAction* copyAction() const { return copy_; }
  QAction* copyAllAction() const { return copyAll_; }

  // Tab-separated text of the selected cells (the rectangle they span, unselected cells empty),
  // headers first; "" when nothing is selected.
  QString selectionText() const;
  QString allText() const;  // the whole table, headers first

 private:
  QString text(int firstRow, int lastRow, const QList<int>& columns,
               const std::function<bool(int, int)>& selected) const;
  void updateCaption();

  DataTableModel* model_;
  QTableView* view_;
  QLabel* caption_;
  QAction* copy_;
  QAction* copyAll_;
  QString note_;
};

}  // namespace rfscope::ui
