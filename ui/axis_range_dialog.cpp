#include "ui/axis_range_dialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace rfscope::ui {
namespace {

// Limits as one would type them: six significant digits, no trailing zeros.
QString limitText(double value) {
  return QLocale::c().toString(value, 'g', 6);
}

}  // namespace

std::optional<double> parseAxisLimit(const QString& text) {
  const QString trimmed = text.trimmed();
  bool ok = false;
  double value = QLocale::c().toDouble(trimmed, &ok);
  if (!ok) value = QLocale().toDouble(trimmed, &ok);
  if (!ok || !std::isfinite(value)) return std::nullopt;
  return value;
}

QString axisRangesProblem(const AxisRanges& ranges, bool logX, bool logY) {
  struct Axis {
    const char* name;
    double lower, upper;
    bool log;
  };
  for (const Axis& axis : {Axis{"x", ranges.xLower, ranges.xUpper, logX},
                           Axis{"y", ranges.yLower, ranges.yUpper, logY}}) {
    const QString name = QString::fromLatin1(axis.name);
    if (!std::isfinite(axis.lower) || !std::isfinite(axis.upper))
      return AxisRangeDialog::tr("The %1 limits must be finite numbers.").arg(name);
    if (axis.log && (axis.lower <= 0 || axis.upper <= 0))
      return AxisRangeDialog::tr(
                 "The %1 axis is logarithmic: both its limits must be above 0 "
                 "(make it linear in the View menu to show 0 or negative values).")
          .arg(name);
    if (!(axis.lower < axis.upper))
      return AxisRangeDialog::tr("%1 from (%2) must be below %1 to (%3).")
          .arg(name, limitText(axis.lower), limitText(axis.upper));
  }
  return {};
}

AxisRangeDialog::AxisRangeDialog(const AxisRanges& current, bool logX, bool logY, QWidget* parent)
    : QDialog(parent),
      logX_(logX),
      logY_(logY),
      xLower_(new QLineEdit(limitText(current.xLower))),
      xUpper_(new QLineEdit(limitText(current.xUpper))),
      yLower_(new QLineEdit(limitText(current.yLower))),
      yUpper_(new QLineEdit(limitText(current.yUpper))),
      problem_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
  setWindowTitle(tr("Set Axis Ranges"));
  auto* grid = new QGridLayout;
  grid->addWidget(new QLabel(tr("from")), 0, 1);
  grid->addWidget(new QLabel(tr("to")), 0, 2);
  const auto scale = [](bool log) { return log ? tr("(logarithmic)") : tr("(linear)"); };
  grid->addWidget(new QLabel(tr("x axis")), 1, 0);
  grid->addWidget(xLower_, 1, 1);
  grid->addWidget(xUpper_, 1, 2);
  grid->addWidget(new QLabel(scale(logX)), 1, 3);
  grid->addWidget(new QLabel(tr("y axis")), 2, 0);
  grid->addWidget(yLower_, 2, 1);
  grid->addWidget(yUpper_, 2, 2);
  grid->addWidget(new QLabel(scale(logY)), 2, 3);
  xLower_->setObjectName("xLower");
  xUpper_->setObjectName("xUpper");
  yLower_->setObjectName("yLower");
  yUpper_->setObjectName("yUpper");
  for (QLineEdit* edit : {xLower_, xUpper_, yLower_, yUpper_}) {
    edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance("-0.00000000e-000"));
    connect(edit, &QLineEdit::textChanged, this, &AxisRangeDialog::check);
  }
  problem_->setObjectName("problem");
  problem_->setWordWrap(true);
  problem_->setStyleSheet("color: #b00020;");
  // The message's room is kept while the ranges are valid, so that nothing moves as one types.
  problem_->setMinimumHeight(3 * problem_->fontMetrics().lineSpacing());
  problem_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto* hint =
      new QLabel(tr("Numbers as 0.001, 1e-3 or -2.5. The view keeps these ranges until "
                    "it is reset (Ctrl+0 or a double click on the plot)."));
  hint->setWordWrap(true);
  hint->setStyleSheet("color: #555;");
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(grid);
  layout->addWidget(hint);
  layout->addWidget(problem_);
  layout->addWidget(buttons_);
  check();
  setMinimumWidth(440);
}

AxisRanges AxisRangeDialog::ranges() const {
  const auto value = [](const QLineEdit* edit) {
    return parseAxisLimit(edit->text()).value_or(std::nan(""));
  };
  return {value(xLower_), value(xUpper_), value(yLower_), value(yUpper_)};
}

QString AxisRangeDialog::problem() const {
  return problem_->text();
}

void AxisRangeDialog::check() {
  QString problem;
  const std::pair<QLineEdit*, QString> fields[] = {{xLower_, tr("x from")},
                                                   {xUpper_, tr("x to")},
                                                   {yLower_, tr("y from")},
                                                   {yUpper_, tr("y to")}};
  for (const auto& [edit, name] : fields) {
    const bool number = parseAxisLimit(edit->text()).has_value();
    edit->setStyleSheet(number ? QString() : QStringLiteral("border: 1px solid #b00020;"));
    if (!number && problem.isEmpty())
      problem = tr("%1: '%2' is not a number.").arg(name, edit->text().trimmed());
  }
  if (problem.isEmpty()) problem = axisRangesProblem(ranges(), logX_, logY_);
  problem_->setText(problem);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

}  // namespace rfscope::ui
