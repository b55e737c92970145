#include "ui/about_dialog.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtGlobal>

#include "core/io/component_versions.h"
#include "ui/backend_menu.h"
#include "ui/std_string.h"

namespace rfscope::ui {

QList<std::pair<QString, QString>> aboutEntries(const BackendMenu& backends,
                                                const QString& lastBackend) {
  QList<std::pair<QString, QString>> entries;
  entries.push_back({AboutDialog::tr("RFScope"), QStringLiteral(RFSCOPE_VERSION)});
  const QString qt = QString::fromLatin1(qVersion());
  entries.push_back(
      {QStringLiteral("Qt"),
       qt == QLatin1String(QT_VERSION_STR)
           ? qt
           : AboutDialog::tr("%1 (built with %2)").arg(qt, QLatin1String(QT_VERSION_STR))});
  entries.push_back({QStringLiteral("QCustomPlot"), QStringLiteral(QCUSTOMPLOT_VERSION_STR)});
  for (const ComponentVersion& component : coreComponentVersions())
    entries.push_back({qs(component.name), qs(component.version)});
  entries.push_back({AboutDialog::tr("SIMD target"), qs(simdTargetDescription())});
  entries.push_back({AboutDialog::tr("CPU backend"), backends.describe(QStringLiteral("cpu"))});
  entries.push_back({AboutDialog::tr("CUDA GPU"), backends.gpuStatus()});
  entries.push_back({AboutDialog::tr("Monte Carlo runs on"), backends.choiceText()});
  entries.push_back({AboutDialog::tr("Last run's backend"),
                     lastBackend.isEmpty() ? AboutDialog::tr("none reported yet") : lastBackend});
  return entries;
}

AboutDialog::AboutDialog(const BackendMenu& backends, const QString& lastBackend, QWidget* parent)
    : QDialog(parent), backends_(backends), lastBackend_(lastBackend), table_(new QLabel) {
  setWindowTitle(tr("About RFScope"));
  auto* heading =
      new QLabel(tr("<h2>RFScope</h2><p>Explore the variance of random-feature kernel "
                    "estimators.</p>"));
  heading->setWordWrap(true);
  table_->setObjectName("aboutTable");
  table_->setTextFormat(Qt::RichText);
  table_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QPushButton* copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
  copy->setToolTip(tr("Copy these lines to the clipboard (for a bug report)"));
  connect(copy, &QPushButton::clicked, this,
          [this]() { QApplication::clipboard()->setText(text()); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(heading);
  layout->addWidget(table_);
  layout->addStretch(1);
  layout->addWidget(buttons);
  // The GPU probe may still be looking when the dialog opens.
  connect(&backends_, &BackendMenu::probed, this, &AboutDialog::refresh);
  refresh();
  setMinimumWidth(520);
}

void AboutDialog::refresh() {
  QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
  for (const auto& [name, value] : aboutEntries(backends_, lastBackend_))
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
  table_->setText(html + QStringLiteral("</table>"));
}

QString AboutDialog::text() const {
  QStringList lines;
  for (const auto& [name, value] : aboutEntries(backends_, lastBackend_))
    lines << name + QStringLiteral(": ") + value;
  return lines.join(QChar('\n'));
}

}  // namespace rfscope::ui
