#pragma once
// Finds widgets and actions as a user would: the spin box of a generated parameter editor (alone,
// or beside its slider), and a menu bar's action by the words shown ("View", "Presentation Mode";
// mnemonics' & ignored), so that tests go through the menus the user sees.

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>

inline QSpinBox* spinBoxOf(QWidget* editor) {
  if (auto* box = qobject_cast<QSpinBox*>(editor)) return box;
  return editor ? editor->findChild<QSpinBox*>() : nullptr;
}

inline QString shownText(const QAction* action) {
  return QString(action->text()).remove(QChar('&'));
}

// The menu bar's menu of that title, null if none.
inline QMenu* menuOf(QMainWindow& window, const QString& title) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && shownText(action) == title) return action->menu();
  return nullptr;
}

// The action of that text in the menu bar's menu of that title, null if none. Actions whose text
// follows what they act on ("Undo d = 128", "Load Result to Compare…") are found by its start.
inline QAction* menuAction(QMainWindow& window, const QString& menu, const QString& text) {
  QMenu* found = menuOf(window, menu);
  if (!found) return nullptr;
  for (QAction* action : found->actions())
    if (shownText(action) == text) return action;
  for (QAction* action : found->actions())
    if (shownText(action).startsWith(text)) return action;
  return nullptr;
}
