#include "ui/claim_banner.h"

#include <QHBoxLayout>
#include <QLabel>

#include "ui/std_string.h"

namespace rfscope::ui {
QString claimVerdictText(const Claim& claim, const ClaimVerdict& verdict, const QString& changes) {
  const QString where = changes.isEmpty() ? QString() : QObject::tr(" at %1").arg(changes);
  if (verdict.holds)
    return QStringLiteral("✓ ") + qs(claim.text) +
           (changes.isEmpty() ? QString() : QObject::tr(" — still holds%1").arg(where));
  for (std::size_t i = 0; i < verdict.assertions.size(); ++i)
    if (!verdict.assertions[i].holds)
      return QStringLiteral("✗ ") + qs(claim.text) + " — " +
             (changes.isEmpty() ? QObject::tr("does not hold: ")
                                : QObject::tr("no longer holds%1: ").arg(where)) +
             qs(claim.assertions[i].text) + ": " + qs(verdict.assertions[i].detail);
  return QStringLiteral("✗ ") + qs(claim.text);
}

ClaimBanner::ClaimBanner(QWidget* parent) : QFrame(parent), label_(new QLabel) {
  setObjectName("claimBanner");
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 4);
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label_->setTextFormat(Qt::PlainText);
  layout->addWidget(label_, 1);
  hide();
}

void ClaimBanner::showVerdict(const Claim& claim, const ClaimVerdict& verdict,
                              const QString& changes) {
  holds_ = verdict.holds;
  setStyleSheet(holds_ ? "#claimBanner { background: #e8f5e9; border-top: 1px solid #66bb6a; }"
                       : "#claimBanner { background: #fdecea; border-top: 1px solid #e57373; }");
  label_->setText(claimVerdictText(claim, verdict, changes));
  QString details;
  for (std::size_t i = 0; i < verdict.assertions.size() && i < claim.assertions.size(); ++i)
    details += (details.isEmpty() ? "" : "\n") +
               QString(verdict.assertions[i].holds ? "✓ " : "✗ ") + qs(claim.assertions[i].text) +
               ": " + qs(verdict.assertions[i].detail);
  setToolTip(details);
  show();
}

QString ClaimBanner::text() const {
  return isVisibleTo(parentWidget()) ? label_->text() : QString();
}

}  // namespace rfscope::ui
