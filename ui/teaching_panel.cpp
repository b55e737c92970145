#include "ui/teaching_panel.h"

#include <QFile>

#include "core/mechanisms/mechanism_registry.h"

namespace rfscope::ui {

QString teachingText(const QString& id) {
  QFile file(":/teaching/" + id + ".html");
  if (file.open(QIODevice::ReadOnly)) return QString::fromUtf8(file.readAll());
  if (const Mechanism* m = findMechanism(id.toStdString())) {
    const auto& info = m->info();
    return "<h3>" + QString::fromStdString(info.name).toHtmlEscaped() + "</h3><p>" +
           QString::fromStdString(info.description).toHtmlEscaped() + "</p><p><i>" +
           QString::fromStdString(info.reference).toHtmlEscaped() + "</i></p>";
  }
  return {};
}

TeachingPanel::TeachingPanel(QWidget* parent) : QTextBrowser(parent) {
  setOpenExternalLinks(true);
  setMinimumWidth(280);
}

void TeachingPanel::showFor(const Experiment& experiment, const ParameterSet& params) {
  QString html = teachingText(QString::fromStdString(experiment.info().id));
  if (html.isEmpty())
    html = "<h2>" + QString::fromStdString(experiment.info().title).toHtmlEscaped() + "</h2><p>" +
           QString::fromStdString(experiment.info().description).toHtmlEscaped() + "</p>";
  if (const auto* ids = std::get_if<std::vector<std::string>>(
          params.find("mechanisms") ? params.find("mechanisms") : nullptr)) {
    for (const auto& id : *ids)
      html += "<hr>" + teachingText(QString::fromStdString(id));
  }
  setHtml(html);
}

}  // namespace rfscope::ui
