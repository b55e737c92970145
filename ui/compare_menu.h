#pragma once
// The Compare menu: pin the result on screen (Ctrl+P) or a saved result file (JSON, as File →
// Export CSV or `rfscope-cli run --json` write it) so that its curves stay on the plot, dimmed,
// while the settings change; clear the pins (Ctrl+Shift+P). The menu holds the pins
// (ui/pinned_runs.h); the window draws those that fit the table shown.

#include <QMenu>
#include <functional>
#include <optional>

#include "ui/pinned_runs.h"

namespace rfscope::ui {

class CompareMenu : public QMenu {
  Q_OBJECT
 public:
  explicit CompareMenu(QWidget* parent = nullptr);

  // Where "Pin Current Curves" finds the run to pin (nullopt: no completed result yet).
  void setCurrentRunSource(std::function<std::optional<PinnedRun>()> source);

  const PinnedRuns& pins() const { return pins_; }
  QAction* pinAction() const { return pin_; }
  QAction* loadAction() const { return load_; }
  QAction* clearAction() const { return clear_; }

  // The menu's actions without their dialogs; each reports what it did through message().
  bool pinCurrent();
  // False, with the reason in *error, if the file cannot be read or is pinned already.
  bool pinResultFile(const QString& path, QString* error = nullptr);
  void clearPins();

 signals:
  void pinsChanged();
  void message(const QString& text);                       // for the status bar
  void failed(const QString& title, const QString& text);  // Load Result failed: for a dialog

 private:
  void updateActions();

  PinnedRuns pins_;
  std::function<std::optional<PinnedRun>()> source_;
  QAction* pin_;
  QAction* load_;
  QAction* clear_;
};

}  // namespace rfscope::ui
