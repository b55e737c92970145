#pragma once
// Edit → Undo / Redo over the settings (ui/parameter_history.h): the two actions, their shortcuts
// (Ctrl+Z; Ctrl+Shift+Z or Ctrl+Y) and texts ("Undo d", "Redo preset crt-fig2-normal"), kept up
// to date with the history. The window records each edit and load; undo and redo ask it to show a
// snapshot, and what it records while doing so is not a new step.

#include <QObject>

#include "ui/parameter_history.h"

class QAction;

namespace rfscope::ui {

class UndoActions : public QObject {
  Q_OBJECT
 public:
  explicit UndoActions(QObject* parent = nullptr);

  QAction* undoAction() const { return undo_; }
  QAction* redoAction() const { return redo_; }
  const ParameterHistory& history() const { return history_; }

  // Records the settings now shown (ignored while a snapshot is being restored).
  void record(const ParameterSnapshot& now, HistoryStep kind = HistoryStep::Edit);

 signals:
  // Show these settings (connected directly: the window applies them before undo returns).
  void restoreRequested(const rfscope::ui::ParameterSnapshot& snapshot);

 private:
  void restore(const ParameterSnapshot* snapshot);
  void updateActions();

  ParameterHistory history_;
  QAction* undo_;
  QAction* redo_;
  bool restoring_ = false;
};

}  // namespace rfscope::ui
