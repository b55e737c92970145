#include "ui/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScrollBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rfscope::ui {
namespace {

QString plainText(const QAction* action) {
  QString text = action->text();
  text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
  text.remove(QChar('&'));
  text.replace(QChar('\x01'), QChar('&'));
  return text;
}

QString keysOf(const QAction* action) {
  QStringList keys;
  for (const QKeySequence& sequence : action->shortcuts())
    if (!sequence.isEmpty()) keys << sequence.toString(QKeySequence::NativeText);
  return keys.join(QStringLiteral(", "));
}

void collect(const QList<QAction*>& actions, const QString& menu, QList<ShortcutEntry>& entries,
             QSet<const QAction*>& seen) {
  for (const QAction* action : actions) {
    if (action->isSeparator() || seen.contains(action)) continue;
    seen.insert(action);
    if (const QMenu* sub = action->menu()) {
      const QString name = plainText(sub->menuAction());
      collect(sub->actions(), menu.isEmpty() ? name : menu + QStringLiteral(" › ") + name, entries,
              seen);
      continue;
    }
    if (const QString keys = keysOf(action); !keys.isEmpty())
      entries.push_back({keys, plainText(action), menu});
  }
}

}  // namespace

QList<ShortcutEntry> windowShortcuts(const QMainWindow& window) {
  QList<ShortcutEntry> entries;
  QSet<const QAction*> seen;
  if (const QMenuBar* bar = window.menuBar()) collect(bar->actions(), {}, entries, seen);
  // Actions with shortcuts that no menu shows (the window's own, a dock's, the plot's).
  QList<QAction*> others;
  for (QAction* action : window.findChildren<QAction*>())
    if (!seen.contains(action) && !action->menu() && !action->shortcuts().isEmpty())
      others.push_back(action);
  collect(others, {}, entries, seen);
  return entries;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(static_cast<int>(entries.size()), 3)) {
  setWindowTitle(tr("Keyboard Shortcuts"));
  table_->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Menu")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->setShowGrid(false);
  for (int row = 0; row < entries.size(); ++row) {
    const ShortcutEntry& entry = entries[row];
    int column = 0;
    for (const QString& text : {entry.keys, entry.action, entry.menu}) {
      auto* item = new QTableWidgetItem(text);
      if (column == 0) {
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
      }
      table_->setItem(row, column++, item);
    }
  }
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
  auto* note =
      new QLabel(tr("On the plot: drag to pan, wheel to zoom, double click to reset the "
                    "view, click a legend entry to hide or show its series, drag the "
                    "legend to move it, right click for the plot's menu."));
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addWidget(note);
  layout->addWidget(buttons);
  int width = table_->verticalScrollBar()->sizeHint().width() + 4;
  for (int column = 0; column < 3; ++column)
    width += table_->columnWidth(column);
  resize(std::max(520, width + 24),
         std::min(720, table_->horizontalHeader()->height() +
                           table_->rowHeight(0) * (static_cast<int>(entries.size()) + 1) + 140));
}

}  // namespace rfscope::ui
