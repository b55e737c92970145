#include "ui/parameter_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "ui/std_string.h"

namespace rfscope::ui {
namespace {

constexpr int kSliderSteps = 1000;
constexpr double kMaxIntegerSliderRange = 5000;

// Slider position ↔ value over [min, max], logarithmic where the spec asks for it.
double sliderToValue(const ParameterSpec& spec, int position) {
  const double t = static_cast<double>(position) / kSliderSteps;
  if (spec.logScale && spec.minimum > 0)
    return std::exp(std::log(spec.minimum) + t * (std::log(spec.maximum) - std::log(spec.minimum)));
  return spec.minimum + t * (spec.maximum - spec.minimum);
}

int valueToSlider(const ParameterSpec& spec, double value) {
  double t = 0;
  if (spec.logScale && spec.minimum > 0 && value > 0)
    t = (std::log(value) - std::log(spec.minimum)) /
        (std::log(spec.maximum) - std::log(spec.minimum));
  else
    t = (value - spec.minimum) / (spec.maximum - spec.minimum);
  return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double asReal(const ParameterValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&value)) return *d;
  return 0;
}

// A QDoubleSpinBox rounds its value to its decimals: three (four for specs reaching below 0.01),
// more where a small value needs them for three significant digits (attention-precision's ε = 1e-4
// and its preset's sweep from 1e-7 showed, and ran, as 0).
void showDecimalsFor(QDoubleSpinBox* box, const ParameterSpec& spec, double value) {
  int decimals = spec.minimum > 0 && spec.minimum < 0.01 ? 4 : 3;
  const double magnitude = std::abs(value);
  if (magnitude > 0 && magnitude < 0.1)
    decimals =
        std::max(decimals, std::min(static_cast<int>(std::ceil(-std::log10(magnitude))) + 2, 12));
  box->setDecimals(decimals);
}

// Spin boxes that take any number typed, so that a value outside the spec (d = 0, σ = -0.5) is
// reported under its control instead of being clamped, sign-dropped or reverted in silence. The
// arrows and the wheel stay within the spec; the size hint is that of the spec's range.
template <typename Base, typename Value>
class TypedSpinBox : public Base {
 public:
  TypedSpinBox(Value low, Value high, Value wideLow, Value wideHigh) : low_(low), high_(high) {
    Base::setRange(wideLow, wideHigh);
    Base::setKeyboardTracking(true);  // a typed value applies without Enter (after the debounce)
  }
  void stepBy(int steps) override {
    const Value next = Base::value() + static_cast<Value>(steps) * Base::singleStep();
    Base::setValue(std::clamp(next, low_, high_));
    Base::selectAll();
  }
  QSize sizeHint() const override { return narrowed(Base::sizeHint()); }
  QSize minimumSizeHint() const override { return narrowed(Base::minimumSizeHint()); }

 protected:
  typename Base::StepEnabled stepEnabled() const override {
    typename Base::StepEnabled enabled = Base::StepNone;
    if (Base::value() < high_) enabled |= Base::StepUpEnabled;
    if (Base::value() > low_) enabled |= Base::StepDownEnabled;
    return enabled;
  }

 private:
  // Qt sizes a spin box for the texts of its range's ends (at most 18 characters each).
  QSize narrowed(QSize hint) const {
    const QFontMetrics metrics(Base::fontMetrics());
    const auto width = [&](Value v) {
      return metrics.horizontalAdvance(Base::textFromValue(v).left(18));
    };
    const int wide = std::max(width(Base::minimum()), width(Base::maximum()));
    const int needed = std::max(width(low_), width(high_));
    hint.setWidth(hint.width() - wide + needed);
    return hint;
  }

  Value low_, high_;
};
using IntegerSpinBox = TypedSpinBox<QSpinBox, int>;
using RealSpinBox = TypedSpinBox<QDoubleSpinBox, double>;

// The meaning of a special end value, as the spec's help states it: "…; 0: M = d (one full block)"
// or "(0: analytic only)" gives "M = d" and "analytic only" for the value 0.
QString specialValueMeaning(const ParameterSpec& spec) {
  const QString value = QString::number(static_cast<long long>(spec.minimum));
  const QString help = qs(spec.help);
  const QRegularExpression pattern("(?:^|[(;] ?)" + QRegularExpression::escape(value) +
                                   ": ([^;()]+)");
  const auto match = pattern.match(help);
  return match.hasMatch() ? match.captured(1).trimmed() : QString();
}

}  // namespace

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  connect(qApp, &QApplication::focusChanged, this, &ParameterPanel::placeErrorNotes);
}

ParameterPanel::Field ParameterPanel::makeField(const ParameterSpec& spec) {
  Field field;
  field.spec = spec;
  auto changed = [this]() {
    if (updating_) return;
    updateVisibility();
    emit parametersChanged();
  };
  switch (spec.type) {
    case ParameterType::Integer: {
      const int low = static_cast<int>(spec.minimum), high = static_cast<int>(spec.maximum);
      auto* box = new IntegerSpinBox(low, high, std::numeric_limits<int>::min(),
                                     std::numeric_limits<int>::max());
      box->setObjectName("spin");
      connect(box, &QSpinBox::valueChanged, this, changed);
      auto* container = new QWidget;
      auto* column = new QVBoxLayout(container);
      column->setContentsMargins(0, 0, 0, 0);
      column->setSpacing(0);
      auto* row = new QHBoxLayout;
      column->addLayout(row);
      row->addWidget(box);
      if (spec.maximum - spec.minimum <= kMaxIntegerSliderRange) {
        // A slider beside the spin box for ranges a slider can resolve one step at a time.
        auto* slider = new QSlider(Qt::Horizontal);
        slider->setRange(low, high);
        row->addWidget(slider, 1);
        connect(slider, &QSlider::valueChanged, box, &QSpinBox::setValue);
        connect(box, &QSpinBox::valueChanged, slider, [slider](int value) {
          const QSignalBlocker blocker(slider);
          slider->setValue(value);
        });
      } else {
        row->setStretchFactor(box, 1);
      }
      // A special end value says what it means, under the box ("0" → "M = d").
      if (const QString meaning = specialValueMeaning(spec); !meaning.isEmpty()) {
        auto* note = new QLabel(tr("%1 means %2").arg(low).arg(meaning));
        note->setObjectName("specialValue");
        note->setStyleSheet("color: #555; font-style: italic;");
        // Its room stays when hidden: typing 0 must not push the form down.
        QSizePolicy policy = note->sizePolicy();
        policy.setRetainSizeWhenHidden(true);
        note->setSizePolicy(policy);
        column->addWidget(note);
        auto update = [note, box, low]() { note->setVisible(box->value() == low); };
        connect(box, &QSpinBox::valueChanged, note, update);
        update();
        box->setToolTip(tr("%1 means %2").arg(low).arg(meaning));
      }
      watchTypedText(spec.key, box, [box]() { return QString::number(box->value()); });
      field.editor = container;
      field.read = [box]() { return ParameterValue(std::int64_t{box->value()}); };
      field.write = [box](const ParameterValue& v) { box->setValue(static_cast<int>(asReal(v))); };
      break;
    }
    case ParameterType::Real: {
      auto* container = new QWidget;
      auto* row = new QHBoxLayout(container);
      row->setContentsMargins(0, 0, 0, 0);
      auto* box = new RealSpinBox(spec.minimum, spec.maximum, -1e9, 1e9);
      showDecimalsFor(box, spec, asReal(spec.defaultValue));
      box->setSingleStep(spec.logScale ? spec.minimum * 10 : (spec.maximum - spec.minimum) / 100);
      auto* slider = new QSlider(Qt::Horizontal);
      slider->setRange(0, kSliderSteps);
      row->addWidget(box);
      row->addWidget(slider, 1);
      connect(slider, &QSlider::valueChanged, this, [box, spec](int position) {
        const QSignalBlocker blocker(box);  // the slider emits the change itself
        box->setValue(sliderToValue(spec, position));
      });
      connect(slider, &QSlider::valueChanged, this, changed);
      connect(box, &QDoubleSpinBox::valueChanged, this, [slider, spec, changed](double value) {
        const QSignalBlocker blocker(slider);
        slider->setValue(valueToSlider(spec, value));
        changed();
      });
      box->setObjectName("spin");
      watchTypedText(spec.key, box, [box]() { return box->textFromValue(box->value()); });
      field.editor = container;
      field.read = [box]() { return ParameterValue(box->value()); };
      field.write = [box, slider, spec](const ParameterValue& v) {
        showDecimalsFor(box, spec, asReal(v));
        box->setValue(asReal(v));
        slider->setValue(valueToSlider(spec, asReal(v)));
      };
      break;
    }
    case ParameterType::Boolean: {
      auto* box = new QCheckBox;
      connect(box, &QCheckBox::toggled, this, changed);
      field.editor = box;
      field.read = [box]() { return ParameterValue(box->isChecked()); };
      field.write = [box](const ParameterValue& v) {
        if (const auto* b = std::get_if<bool>(&v)) box->setChecked(*b);
      };
      break;
    }
    case ParameterType::Choice: {
      auto* box = new QComboBox;
      for (const auto& c : spec.choices)
        box->addItem(qs(c.label), qs(c.id));
      connect(box, &QComboBox::currentIndexChanged, this, changed);
      field.editor = box;
      field.read = [box]() { return ParameterValue(box->currentData().toString().toStdString()); };
      field.write = [box](const ParameterValue& v) {
        if (const auto* id = std::get_if<std::string>(&v)) {
          const int index = box->findData(qs(*id));
          if (index >= 0) box->setCurrentIndex(index);
        }
      };
      break;
    }
    case ParameterType::MultiChoice: {
      auto* container = new QWidget;
      auto* column = new QVBoxLayout(container);
      column->setContentsMargins(0, 0, 0, 0);
      column->setSpacing(2);
      QList<QCheckBox*> boxes;
      for (const auto& c : spec.choices) {
        auto* box = new QCheckBox(qs(c.label));
        box->setProperty("choiceId", qs(c.id));
        connect(box, &QCheckBox::toggled, this, changed);
        column->addWidget(box);
        boxes.push_back(box);
      }
      field.editor = container;
      field.read = [boxes]() {
        std::vector<std::string> ids;
        for (auto* box : boxes)
          if (box->isChecked()) ids.push_back(box->property("choiceId").toString().toStdString());
        return ParameterValue(ids);
      };
      field.write = [boxes](const ParameterValue& v) {
        const auto* ids = std::get_if<std::vector<std::string>>(&v);
        if (!ids) return;
        for (auto* box : boxes) {
          const std::string id = box->property("choiceId").toString().toStdString();
          box->setChecked(std::find(ids->begin(), ids->end(), id) != ids->end());
        }
      };
      break;
    }
    case ParameterType::Text: {
      auto* container = new QWidget;
      auto* row = new QHBoxLayout(container);
      row->setContentsMargins(0, 0, 0, 0);
      auto* line = new QLineEdit;
      line->setObjectName("text");
      row->addWidget(line, 1);
      connect(line, &QLineEdit::textEdited, this, changed);  // applies after the quiet period
      if (!spec.fileFilter.empty()) {
        auto* browse = new QToolButton;
        browse->setText(tr("…"));
        browse->setToolTip(tr("Choose a file"));
        row->addWidget(browse);
        const QString filter = qs(spec.fileFilter);
        connect(browse, &QToolButton::clicked, this, [this, line, filter, changed]() {
          const QString path = QFileDialog::getOpenFileName(this, tr("Choose a file"), line->text(),
                                                            filter + tr(";;All files (*)"));
          if (path.isEmpty()) return;
          line->setText(path);
          changed();
        });
      }
      field.editor = container;
      field.read = [line]() { return ParameterValue(line->text().toStdString()); };
      field.write = [line](const ParameterValue& v) {
        if (const auto* text = std::get_if<std::string>(&v)) line->setText(qs(*text));
      };
      break;
    }
  }
  field.editor->setToolTip(qs(spec.help));
  field.editor->setObjectName(qs(spec.key));
  // The reason a value is invalid: a note floating under the control (outside the layout).
  field.error = new QLabel(this);
  field.error->setObjectName("errorNote");
  field.error->setWordWrap(true);
  field.error->setStyleSheet(
      "#errorNote { color: #b00020; background: #fff3f3; border: 1px solid #e3a3a3; "
      "border-radius: 3px; padding: 2px 4px; }");
  field.error->setAttribute(Qt::WA_TransparentForMouseEvents);  // clicks reach what it covers
  field.error->hide();
  return field;
}

void ParameterPanel::setSpecs(const std::vector<ParameterSpec>& specs, const ParameterSet& values) {
  updating_ = true;
  while (form_->rowCount() > 0)
    form_->removeRow(0);
  for (Field& field : fields_)
    delete field.error;  // outside the form: removeRow leaves it
  fields_.clear();
  // Parameters of one group stay together, groups in order of first appearance.
  std::vector<std::string> groups;
  for (const auto& spec : specs)
    if (std::find(groups.begin(), groups.end(), spec.group) == groups.end())
      groups.push_back(spec.group);
  std::vector<ParameterSpec> ordered;
  for (const auto& g : groups)
    for (const auto& spec : specs)
      if (spec.group == g) ordered.push_back(spec);
  std::string group;
  for (const auto& spec : ordered) {
    if (!spec.group.empty() && spec.group != group) {
      group = spec.group;
      auto* header = new QLabel("<b>" + qs(group) + "</b>");
      form_->addRow(header);
    }
    Field field = makeField(spec);
    auto* cell = new QWidget;
    auto* column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(field.editor);
    auto* label =
        new QLabel(qs(spec.label) + (spec.unit.empty() ? "" : " [" + qs(spec.unit) + "]"));
    label->setToolTip(qs(spec.help));
    form_->addRow(label, cell);
    field.row = cell;
    field.label = label;
    cell->installEventFilter(this);  // its note follows it when the form's layout changes
    const ParameterValue* value = values.find(spec.key);
    field.write(value ? *value : spec.defaultValue);
    fields_.push_back(std::move(field));
  }
  updating_ = false;
  updateVisibility();
}

void ParameterPanel::updateVisibility() {
  const ParameterSet current = parameters();
  for (auto& field : fields_) {
    bool visible = true;
    if (!field.spec.visibleWhenKey.empty()) {
      const ParameterValue* controller = current.find(field.spec.visibleWhenKey);
      const auto* id = controller ? std::get_if<std::string>(controller) : nullptr;
      visible =
          id && std::find(field.spec.visibleWhenValues.begin(), field.spec.visibleWhenValues.end(),
                          *id) != field.spec.visibleWhenValues.end();
    }
    field.row->setVisible(visible);
    field.label->setVisible(visible);
  }
  placeErrorNotes();
}

ParameterSet ParameterPanel::parameters() const {
  ParameterSet set;
  for (const auto& field : fields_)
    set.set(field.spec.key, field.read());
  return set;
}

void ParameterPanel::setParameters(const ParameterSet& values) {
  updating_ = true;
  for (auto& field : fields_)
    if (const ParameterValue* value = values.find(field.spec.key)) field.write(*value);
  updating_ = false;
  updateVisibility();
}

bool ParameterPanel::stepParameter(const std::string& key, int steps) {
  for (auto& field : fields_) {
    if (field.spec.key != key) continue;
    const ParameterValue current = field.read();
    updating_ = true;  // one parametersChanged for the whole step
    if (field.spec.type == ParameterType::Integer) {
      const auto value = std::get<std::int64_t>(current);
      auto next = key == "d" ? (steps > 0 ? value << steps : value >> -steps) : value + steps;
      next = std::clamp<std::int64_t>(next, static_cast<std::int64_t>(field.spec.minimum),
                                      static_cast<std::int64_t>(field.spec.maximum));
      field.write(next);
    } else if (field.spec.type == ParameterType::Real) {
      const int position = valueToSlider(field.spec, asReal(current)) + steps * kSliderSteps / 100;
      field.write(sliderToValue(field.spec, std::clamp(position, 0, kSliderSteps)));
    } else {
      updating_ = false;
      return false;
    }
    updating_ = false;
    emit parametersChanged();
    return true;
  }
  return false;
}

void ParameterPanel::setPresentationMode(bool on) {
  QFont f = font();
  f.setPointSize(on ? QApplication::font().pointSize() + 4 : QApplication::font().pointSize());
  setFont(f);
  // Check boxes as large as the text beside them (the style draws them at a fixed 13 pixels).
  const int indicator = QFontMetrics(f).height() * 9 / 10;
  setStyleSheet(
      on ? QStringLiteral("QCheckBox::indicator { width: %1px; height: %1px; }").arg(indicator)
         : QString());
  placeErrorNotes();
}

void ParameterPanel::watchTypedText(const std::string& key, QAbstractSpinBox* box,
                                    std::function<QString()> valueInUse) {
  auto* line = box->findChild<QLineEdit*>();
  if (!line) return;
  // Text that is not (yet) a number ("", "-", "1.") changes nothing: say so under the control
  // rather than let the box revert it silently when it loses focus.
  connect(line, &QLineEdit::textEdited, this, [this, key, box, valueInUse](const QString& text) {
    setInputError(key, box->hasAcceptableInput()
                           ? QString()
                           : tr("'%1' is not a number: %2 stays in use").arg(text, valueInUse()));
  });
  connect(box, &QAbstractSpinBox::editingFinished, this, [this, key]() { setInputError(key, {}); });
}

void ParameterPanel::setInputError(const std::string& key, const QString& message) {
  for (auto& field : fields_)
    if (field.spec.key == key && field.inputError != message) {
      field.inputError = message;
      renderError(field);
    }
}

void ParameterPanel::renderError(Field& field) {
  QString text = field.inputError;
  if (!field.checkError.isEmpty()) text += (text.isEmpty() ? "" : "\n") + field.checkError;
  if (text == field.error->text()) return;
  field.error->setText(text);
  // The label turns red (its size stays), the reason is in the tooltip and the floating note.
  field.label->setStyleSheet(text.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
  const QString help = qs(field.spec.help);
  field.editor->setToolTip(text.isEmpty() ? help : help + "\n\n⚠ " + text);
  placeErrorNotes();
}

void ParameterPanel::placeErrorNotes() {
  const QWidget* focus = QApplication::focusWidget();
  for (Field& field : fields_) {
    const bool focused = focus && (focus == field.editor || field.editor->isAncestorOf(focus));
    const bool shown =
        focused && !field.error->text().isEmpty() && field.row && field.row->isVisibleTo(this);
    if (!shown) {
      field.error->hide();
      continue;
    }
    // Under the control, over the rows below it; above it where the panel ends first.
    const QPoint top = field.row->mapTo(this, QPoint(0, 0));
    const int width = field.row->width();
    const int height = field.error->heightForWidth(width);
    int y = top.y() + field.row->height() + 1;
    if (y + height > this->height()) y = std::max(0, top.y() - height - 1);
    field.error->setGeometry(top.x(), y, width, height);
    field.error->raise();
    field.error->show();
  }
}

void ParameterPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeErrorNotes();
}

bool ParameterPanel::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Move || event->type() == QEvent::Resize) placeErrorNotes();
  return QWidget::eventFilter(watched, event);
}

bool ParameterPanel::hasInputErrors() const {
  return std::any_of(fields_.begin(), fields_.end(),
                     [](const Field& f) { return !f.inputError.isEmpty(); });
}

QString ParameterPanel::humanize(const std::string& message) const {
  QString text = qs(message);
  // Messages name parameters by key ("parameter 'sigma-max': must be larger than sigma-min"); the
  // panel shows labels ("σ to: must be larger than σ from").
  for (const auto& field : fields_) {
    const QString key = qs(field.spec.key), label = qs(field.spec.label);
    text.replace("parameter '" + key + "'", label);
    text.replace("'" + key + "'", label);
    if (key.contains('-'))  // unquoted keys only where they cannot be ordinary words
      text.replace(
          QRegularExpression("(?<![\\w-])" + QRegularExpression::escape(key) + "(?![\\w-])"),
          label);
  }
  if (text.startsWith("parameters ")) text.remove(0, 11);
  return text;
}

void ParameterPanel::showErrors(const std::vector<ParameterError>& errors) {
  for (auto& field : fields_) {
    const QString ownPrefix = qs(field.spec.label) + ": ";
    QString text;
    for (const auto& e : errors) {
      if (e.key != field.spec.key) continue;
      QString message = humanize(e.message);
      if (message.startsWith(ownPrefix)) message.remove(0, ownPrefix.size());  // under its label
      text += (text.isEmpty() ? "" : "\n") + message;
    }
    field.checkError = text;
    renderError(field);
  }
}

QWidget* ParameterPanel::editor(const std::string& key) const {
  for (const auto& field : fields_)
    if (field.spec.key == key) return field.editor;
  return nullptr;
}

QWidget* ParameterPanel::errorNote(const std::string& key) const {
  for (const auto& field : fields_)
    if (field.spec.key == key) return field.error;
  return nullptr;
}

QString ParameterPanel::errorText(const std::string& key) const {
  for (const auto& field : fields_)
    if (field.spec.key == key) return field.error->text();
  return {};
}

}  // namespace rfscope::ui
