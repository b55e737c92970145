#pragma once
// Finds a window's menu actions by their texts as the user reads them (without '&'), so that tests
// drive the real actions of the menu bar.

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

// The menu of the menu bar titled `menu` ("View" for "&View"), or null.
inline QMenu* menuNamed(const QMainWindow& window, const QString& menu) {
  for (QAction* a : window.menuBar()->actions())
    if (a->menu() && QString(a->text()).remove('&') == menu) return a->menu();
  return nullptr;
}

// The action of that menu whose text starts with `action` ("Undo" for "&Undo d = 128"), or null.
inline QAction* menuAction(const QMainWindow& window, const QString& menu, const QString& action) {
  QMenu* found = menuNamed(window, menu);
  if (!found) return nullptr;
  for (QAction* a : found->actions())
    if (QString(a->text()).remove('&').startsWith(action)) return a;
  return nullptr;
}
