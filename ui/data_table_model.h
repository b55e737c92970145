#pragma once
// The plotted table as a read-only item model: one column per table column, headed by its label
// (its key in the tooltip), a column of names after x where the plot names x values (as in the
// CSV), one row per row, and an empty cell where a value is missing (NaN). A new table of the same
// columns updates the rows in place, so that a selection survives a streamed (partial) result.

#include <QAbstractTableModel>
#include <QVector>
#include <memory>

#include "core/experiments/table.h"

namespace rfscope::ui {

class DataTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  explicit DataTableModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const Table> table);  // null: no table
  const Table* table() const { return table_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // A cell as copied: every digit of the value (the shortest text that reads back the same, whole
  // numbers without exponent), "" where there is none.
  QString copyText(int row, int column) const;
  QString headerText(int column) const;  // the label shown atop the column

 private:
  struct ShownColumn {
    int source = -1;  // index into table columns; -1: the names of the x values
    QString header;
    QString key;
  };
  static QVector<ShownColumn> shownColumns(const Table& table);
  double value(int row, const ShownColumn& column) const;
  QString xName(int row) const;

  std::shared_ptr<const Table> table_;
  QVector<ShownColumn> columns_;
};

}  // namespace rfscope::ui
