#pragma once
// A form generated from parameter specs: spin boxes (with sliders for reals), check boxes, combo
// boxes and check lists. It knows nothing about experiments. An invalid value turns its label red;
// the reason is in the control's tooltip and, while the control has the focus, in a note just
// under it that floats over the form: the form never moves while one types (a message in the
// layout pushed every control below it down, so that a click meant for one hit another).

#include <QWidget>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/params/parameter_set.h"

class QAbstractSpinBox;
class QFormLayout;
class QLabel;

namespace rfscope::ui {

class ParameterPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ParameterPanel(QWidget* parent = nullptr);

  // Rebuilds the form for specs, showing values (defaults where values lacks a key).
  void setSpecs(const std::vector<ParameterSpec>& specs, const ParameterSet& values);
  ParameterSet parameters() const;
  void setParameters(const ParameterSet& values);  // updates controls without emitting changes

  // Shows each error under its control, in the labels the panel shows (see humanize).
  void showErrors(const std::vector<ParameterError>& errors);
  // A message with parameter keys replaced by their labels.
  QString humanize(const std::string& message) const;
  // Some control holds text that is not a value (e.g. "-" while typing "-0.5").
  bool hasInputErrors() const;
  // Keyboard stepping: integers move by `steps` (the dimension d doubles/halves), reals by
  // `steps` hundredths of their slider; emits parametersChanged. False if key is not numeric.
  bool stepParameter(const std::string& key, int steps);
  void setPresentationMode(bool on);
  QWidget* editor(const std::string& key) const;  // for tests
  QString errorText(const std::string& key) const;
  QWidget* errorNote(const std::string& key) const;  // the floating note (for tests)

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 signals:
  void parametersChanged();

 private:
  struct Field {
    ParameterSpec spec;
    QWidget* editor = nullptr;
    QLabel* error = nullptr;
    QString inputError;      // typed text that is not a value
    QString checkError;      // the last validation's verdict
    QWidget* row = nullptr;  // editor + error, hidden with the label when not applicable
    QLabel* label = nullptr;
    std::function<ParameterValue()> read;
    std::function<void(const ParameterValue&)> write;
  };
  Field makeField(const ParameterSpec& spec);
  void updateVisibility();
  void watchTypedText(const std::string& key, QAbstractSpinBox* box,
                      std::function<QString()> valueInUse);
  void setInputError(const std::string& key, const QString& message);
  void renderError(Field& field);
  void placeErrorNotes();  // shows the focused field's note under its control, hides the others

  QFormLayout* form_;
  std::vector<Field> fields_;
  bool updating_ = false;
};

}  // namespace rfscope::ui
