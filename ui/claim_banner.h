#pragma once
// The claim of the preset on show, under the plot, with its verdict on the figure: ✓ when every
// assertion holds, ✗ with the first that does not and its numbers. Re-evaluated after every run,
// so changing a parameter shows where a paper's statement stops being true ("no longer holds at
// d = 4: OPRF 0.31 above PosRF 0.29 at sigma = 0.3"). Every assertion is in the tooltip.

#include <QFrame>
#include <QString>

#include "core/experiments/claim.h"

class QLabel;

namespace rfscope::ui {

// The banner's line: "✓ claim", or "✗ claim — does not hold (at d = 4): assertion: numbers".
// `changes` lists the parameters that differ from the preset's ("d = 4"), empty at its values.
QString claimVerdictText(const Claim& claim, const ClaimVerdict& verdict, const QString& changes);

class ClaimBanner : public QFrame {
 public:
  explicit ClaimBanner(QWidget* parent = nullptr);
  void showVerdict(const Claim& claim, const ClaimVerdict& verdict, const QString& changes);
  QString text() const;  // as shown, plain; empty while hidden
  bool holds() const { return holds_; }

 private:
  QLabel* label_;
  bool holds_ = false;
};

}  // namespace rfscope::ui
