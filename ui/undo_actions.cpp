#include "ui/undo_actions.h"

#include <QAction>

namespace rfscope::ui {

UndoActions::UndoActions(QObject* parent)
    : QObject(parent), undo_(new QAction(this)), redo_(new QAction(this)) {
  undo_->setShortcuts(QKeySequence::Undo);
  redo_->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
  undo_->setStatusTip(tr("Go back to the settings before the last change, and run them"));
  redo_->setStatusTip(tr("Apply again the change undone last"));
  connect(undo_, &QAction::triggered, this, [this]() { restore(history_.undo()); });
  connect(redo_, &QAction::triggered, this, [this]() { restore(history_.redo()); });
  updateActions();
}

void UndoActions::record(const ParameterSnapshot& now, HistoryStep kind) {
  if (restoring_) return;
  history_.record(now, kind);
  updateActions();
}

void UndoActions::restore(const ParameterSnapshot* snapshot) {
  if (!snapshot) return;
  const ParameterSnapshot copy = *snapshot;  // the window's records must not touch it meanwhile
  restoring_ = true;
  emit restoreRequested(copy);
  restoring_ = false;
  updateActions();
}

void UndoActions::updateActions() {
  const auto text = [](const QString& verb, const std::string& what) {
    return what.empty() ? verb : verb + " " + QString::fromStdString(what);
  };
  undo_->setText(text(tr("&Undo"), history_.undoText()));
  redo_->setText(text(tr("&Redo"), history_.redoText()));
  undo_->setEnabled(history_.canUndo());
  redo_->setEnabled(history_.canRedo());
}

}  // namespace rfscope::ui
