#pragma once
// Teaching mode: the formulas and a plain-language explanation of the current experiment and of
// each selected mechanism, as rich text. Texts live in resources/teaching/<id>.html; an id without
// a text falls back to the description the core declares.

#include <QTextBrowser>

#include "core/experiments/experiment.h"

namespace rfscope::ui {

class TeachingPanel : public QTextBrowser {
  Q_OBJECT
 public:
  explicit TeachingPanel(QWidget* parent = nullptr);
  // The experiment's text and each selected mechanism's; a preset's own text first (what its
  // figure shows, resources/teaching/preset-<id>.html) when `presetId` names one that has it.
  void showFor(const Experiment& experiment, const ParameterSet& params,
               const std::string& presetId = {});
  void setPresentationMode(bool on);  // a font to read from the back of the room

 private:
  void showHtml();
  QString html_;  // the text shown, placeholders filled
};

// The teaching text for an experiment or mechanism id, or "preset-<id>" (HTML), empty if none is
// known.
QString teachingText(const QString& id);

}  // namespace rfscope::ui
