#pragma once
// Asks for exact axis ranges: x from/to and y from/to, as numbers ("0.001", "1e-3", "-2.5").
// Every field is checked as it is typed and the reason shown under the fields: not a number,
// "from" not below "to", or a limit ≤ 0 on a logarithmic axis; OK stays disabled until all hold.

#include <QDialog>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace rfscope::ui {

struct AxisRanges {
  double xLower = 0, xUpper = 1;
  double yLower = 0, yUpper = 1;
};

// Why the ranges cannot be applied (empty when they can): `logX`/`logY` say which axes are
// logarithmic.
QString axisRangesProblem(const AxisRanges& ranges, bool logX, bool logY);

// A typed limit as a number: the C locale's or the user's ("0,5"), unset if neither.
std::optional<double> parseAxisLimit(const QString& text);

class AxisRangeDialog : public QDialog {
  Q_OBJECT
 public:
  AxisRangeDialog(const AxisRanges& current, bool logX, bool logY, QWidget* parent = nullptr);

  // The ranges typed; valid once the dialog is accepted.
  AxisRanges ranges() const;
  QString problem() const;  // the message shown, empty while the ranges are valid

  // For tests.
  QLineEdit* xLowerEdit() const { return xLower_; }
  QLineEdit* xUpperEdit() const { return xUpper_; }
  QLineEdit* yLowerEdit() const { return yLower_; }
  QLineEdit* yUpperEdit() const { return yUpper_; }
  QDialogButtonBox* buttons() const { return buttons_; }

 private:
  void check();

  bool logX_, logY_;
  QLineEdit* xLower_;
  QLineEdit* xUpper_;
  QLineEdit* yLower_;
  QLineEdit* yUpper_;
  QLabel* problem_;
  QDialogButtonBox* buttons_;
};

}  // namespace rfscope::ui
