#pragma once
// Help → Keyboard Shortcuts: every shortcut the window defines, read from its actions (the menus'
// in menu order, then any other action of the window), so the list cannot drift from the app.

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;
class QTableWidget;

namespace rfscope::ui {

struct ShortcutEntry {
  QString keys;    // "Ctrl+Shift+L", several joined by ", "
  QString action;  // "Logarithmic y Axis" (without the mnemonic's &)
  QString menu;    // "View", "Presets › …"; empty for an action in no menu
};

// The shortcuts of the window's actions: its menu bar's, in menu order, then those of its other
// actions (docks' toggles, the plot's, actions added to the window).
QList<ShortcutEntry> windowShortcuts(const QMainWindow& window);

class ShortcutsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }  // keys, action, menu: one row per entry

 private:
  QTableWidget* table_;
};

}  // namespace rfscope::ui
