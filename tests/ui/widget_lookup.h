#pragma once
// Finds the spin box of a generated parameter editor (alone, or beside its slider).

#include <QSpinBox>

inline QSpinBox* spinBoxOf(QWidget* editor) {
  if (auto* box = qobject_cast<QSpinBox*>(editor)) return box;
  return editor ? editor->findChild<QSpinBox*>() : nullptr;
}
