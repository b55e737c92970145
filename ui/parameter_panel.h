#pragma once
// A form generated from parameter specs: spin boxes (with sliders for reals), check boxes, combo
// boxes and check lists. It knows nothing about experiments; invalid values are marked next to
// their control with the reason.

#include <QWidget>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/params/parameter_set.h"

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

  void showErrors(const std::vector<ParameterError>& errors);
  // Keyboard stepping: integers move by `steps` (the dimension d doubles/halves), reals by
  // `steps` hundredths of their slider; emits parametersChanged. False if key is not numeric.
  bool stepParameter(const std::string& key, int steps);
  void setPresentationMode(bool on);
  QWidget* editor(const std::string& key) const;  // for tests
  QString errorText(const std::string& key) const;

 signals:
  void parametersChanged();

 private:
  struct Field {
    ParameterSpec spec;
    QWidget* editor = nullptr;
    QLabel* error = nullptr;
    QWidget* row = nullptr;  // editor + error, hidden with the label when not applicable
    QLabel* label = nullptr;
    std::function<ParameterValue()> read;
    std::function<void(const ParameterValue&)> write;
  };
  Field makeField(const ParameterSpec& spec);
  void updateVisibility();

  QFormLayout* form_;
  std::vector<Field> fields_;
  bool updating_ = false;
};

}  // namespace rfscope::ui
