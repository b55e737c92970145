#include "ui/compare_menu.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>

#include "core/io/json_result_reader.h"

namespace rfscope::ui {

CompareMenu::CompareMenu(QWidget* parent) : QMenu(tr("&Compare"), parent) {
  pin_ = addAction(tr("&Pin Current Curves"), QKeySequence(tr("Ctrl+P")), this,
                   &CompareMenu::pinCurrent);
  pin_->setStatusTip(tr("Keep the curves on screen, dimmed, while the settings change"));
  load_ =
      addAction(tr("&Load Result to Compare…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this]() {
        const QString path = QFileDialog::getOpenFileName(parentWidget(), tr("Load a saved result"),
                                                          {}, tr("RFScope results (*.json)"));
        QString error;
        if (!path.isEmpty() && !pinResultFile(path, &error))
          emit failed(tr("Cannot load the result"), error);
      });
  load_->setStatusTip(
      tr("Pin the curves of a result saved as JSON (File → Export CSV… as .json, rfscope-cli run "
         "--json)"));
  addSeparator();
  clear_ = addAction(tr("&Clear Pinned Curves"), QKeySequence(tr("Ctrl+Shift+P")), this,
                     &CompareMenu::clearPins);
  updateActions();
}

void CompareMenu::setCurrentRunSource(std::function<std::optional<PinnedRun>()> source) {
  source_ = std::move(source);
}

bool CompareMenu::pinCurrent() {
  std::optional<PinnedRun> run = source_ ? source_() : std::nullopt;
  if (!run || !run->table) {
    emit message(tr("Nothing to pin yet: no run has finished"));
    return false;
  }
  if (!pins_.add(std::move(*run))) {
    emit message(tr("These curves are pinned already"));
    return false;
  }
  updateActions();
  emit pinsChanged();
  emit message(
      tr("Curves pinned (%1 pinned): change the settings to compare; Ctrl+Shift+P clears them")
          .arg(pins_.size()));
  return true;
}

bool CompareMenu::pinResultFile(const QString& path, QString* error) {
  const auto refuse = [this, error](const QString& text) {
    if (error) *error = text;
    emit message(tr("Cannot pin the result: ") + text);
    return false;
  };
  SavedRun saved;
  try {
    saved = loadSavedRun(QFile::encodeName(path).toStdString());
  } catch (const std::exception& e) {
    return refuse(QString::fromUtf8(e.what()));
  }
  PinnedRun run{saved.experimentId, saved.parameters,
                std::make_shared<const Table>(std::move(saved.table)), path};
  if (!pins_.add(std::move(run)))
    return refuse(tr("%1 is pinned already").arg(QFileInfo(path).fileName()));
  updateActions();
  emit pinsChanged();
  emit message(tr("Pinned the result of %1").arg(QFileInfo(path).fileName()));
  return true;
}

void CompareMenu::clearPins() {
  if (pins_.empty()) return;
  pins_.clear();
  updateActions();
  emit pinsChanged();
  emit message(tr("Pinned curves cleared"));
}

void CompareMenu::updateActions() {
  clear_->setEnabled(!pins_.empty());
  clear_->setText(pins_.empty() ? tr("&Clear Pinned Curves")
                                : tr("&Clear Pinned Curves (%1)").arg(pins_.size()));
}

}  // namespace rfscope::ui
