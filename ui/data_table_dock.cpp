#include "ui/data_table_dock.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <functional>
#include <set>

#include "ui/data_table_model.h"

namespace rfscope::ui {
namespace {

// A field of tab-separated text: tabs and line breaks inside it would split it.
QString field(QString text) {
  text.replace('\t', ' ');
  text.replace('\n', ' ');
  text.replace('\r', ' ');
  return text;
}

}  // namespace

DataTableDock::DataTableDock(QWidget* parent)
    : QDockWidget(tr("Data Table"), parent),
      model_(new DataTableModel(this)),
      view_(new QTableView),
      caption_(new QLabel),
      copy_(new QAction(tr("&Copy"), this)),
      copyAll_(new QAction(tr("Copy &All"), this)) {
  setObjectName("dataTableDock");
  view_->setModel(model_);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setSelectionBehavior(QAbstractItemView::SelectItems);
  view_->setAlternatingRowColors(true);
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);

  copy_->setShortcut(QKeySequence::Copy);
  copy_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  copy_->setStatusTip(tr("Copy the selected cells as tab-separated text with their headers"));
  copyAll_->setStatusTip(tr("Copy the whole table as tab-separated text with its headers"));
  connect(copy_, &QAction::triggered, this, [this]() {
    const QString text = selectionText();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
  });
  connect(copyAll_, &QAction::triggered, this,
          [this]() { QApplication::clipboard()->setText(allText()); });
  view_->addAction(copy_);
  view_->addAction(copyAll_);
  addAction(copy_);  // Ctrl+C anywhere in the dock

  auto* copyButton = new QToolButton;
  copyButton->setDefaultAction(copy_);
  auto* copyAllButton = new QToolButton;
  copyAllButton->setDefaultAction(copyAll_);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(caption_, 1);
  bar->addWidget(copyButton);
  bar->addWidget(copyAllButton);
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  setWidget(content);

  connect(model_, &QAbstractItemModel::modelReset, this, [this]() {
    view_->resizeColumnsToContents();
    updateCaption();
  });
  connect(model_, &QAbstractItemModel::rowsInserted, this, &DataTableDock::updateCaption);
  connect(model_, &QAbstractItemModel::rowsRemoved, this, &DataTableDock::updateCaption);
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this]() { copy_->setEnabled(view_->selectionModel()->hasSelection()); });
  copy_->setEnabled(false);
  updateCaption();
}

void DataTableDock::setTable(std::shared_ptr<const Table> table, const QString& note) {
  note_ = note;
  model_->setTable(std::move(table));
  updateCaption();
}

void DataTableDock::updateCaption() {
  const Table* table = model_->table();
  copyAll_->setEnabled(table && model_->rowCount() > 0);
  if (!table) {
    caption_->setText(tr("No result yet"));
    return;
  }
  const auto count = [](int n, const QString& one, const QString& many) {
    return n == 1 ? one : many.arg(n);
  };
  QString text = QString::fromStdString(table->hints.title).simplified() + " — " +
                 count(model_->rowCount(), tr("1 row"), tr("%1 rows")) + " × " +
                 count(model_->columnCount(), tr("1 column"), tr("%1 columns"));
  if (!note_.isEmpty()) text += " · " + note_;
  caption_->setText(text);
}

QString DataTableDock::text(int firstRow, int lastRow, const QList<int>& columns,
                            const std::function<bool(int, int)>& selected) const {
  QStringList lines;
  QStringList headers;
  for (int column : columns)
    headers << field(model_->headerText(column));
  lines << headers.join('\t');
  for (int row = firstRow; row <= lastRow; ++row) {
    QStringList cells;
    for (int column : columns)
      cells << (selected(row, column) ? field(model_->copyText(row, column)) : QString());
    lines << cells.join('\t');
  }
  return lines.join('\n') + '\n';
}

QString DataTableDock::selectionText() const {
  const QModelIndexList indexes = view_->selectionModel()->selectedIndexes();
  if (indexes.isEmpty()) return {};
  int firstRow = indexes.front().row(), lastRow = firstRow;
  std::set<int> columnSet;
  for (const QModelIndex& index : indexes) {
    firstRow = std::min(firstRow, index.row());
    lastRow = std::max(lastRow, index.row());
    columnSet.insert(index.column());
  }
  const QList<int> columns(columnSet.begin(), columnSet.end());
  const QItemSelectionModel* selection = view_->selectionModel();
  return text(firstRow, lastRow, columns, [this, selection](int row, int column) {
    return selection->isSelected(model_->index(row, column));
  });
}

QString DataTableDock::allText() const {
  QList<int> columns;
  for (int column = 0; column < model_->columnCount(); ++column)
    columns << column;
  return text(0, model_->rowCount() - 1, columns, [](int, int) { return true; });
}

}  // namespace rfscope::ui
