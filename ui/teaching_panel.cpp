#include "ui/teaching_panel.h"

#include <QApplication>
#include <QFile>
#include <QScrollBar>

#include "core/data/regime.h"
#include "core/mechanisms/mechanism_registry.h"
#include "ui/std_string.h"

namespace rfscope::ui {
namespace {

const std::string* choiceOf(const ParameterSet& params, const std::string& key) {
  const ParameterValue* value = params.find(key);
  return value ? std::get_if<std::string>(value) : nullptr;
}

// Texts name the settings they depend on with placeholders, filled in from the chosen values:
// {{regime}} the distribution of the pairs, {{kernel}} the kernel estimated, {{kernel-note}} what
// the kernel changes in the picture. Texts stay true whatever the user picks.
QString fillPlaceholders(QString html, const ParameterSet& params) {
  QString regime = QObject::tr("the chosen regime");
  if (const std::string* id = choiceOf(params, "regime"))
    if (const Regime* r = findRegime(*id))
      regime = "<i>" + qs(r->info().description).toHtmlEscaped() + "</i> (" + qs(*id) + ")";
  const std::string* kernelId = choiceOf(params, "kernel");
  const bool softmax = kernelId && *kernelId == "softmax";
  const QString kernel =
      softmax ? QObject::tr("the softmax kernel SM(<b>x</b>, <b>y</b>) = exp(<b>x</b>ᵀ<b>y</b>)")
              : QObject::tr(
                    "the Gaussian kernel <i>K</i>(<b>x</b>, <b>y</b>) = "
                    "exp(−‖<b>x</b> − <b>y</b>‖²/2)");
  const QString kernelNote =
      softmax ? QObject::tr(
                    "<p>With the softmax kernel every variance is "
                    "e<sup>‖<b>x</b>‖² + ‖<b>y</b>‖²</sup> times the Gaussian kernel's, the "
                    "same factor for every mechanism: all curves rise together and the gaps "
                    "between them are those of the Gaussian kernel.</p>")
              : QString();
  html.replace("{{regime}}", regime);
  html.replace("{{kernel}}", kernel);
  html.replace("{{kernel-note}}", kernelNote);
  return html;
}

}  // namespace

QString teachingText(const QString& id) {
  QFile file(":/teaching/" + id + ".html");
  if (file.open(QIODevice::ReadOnly)) return QString::fromUtf8(file.readAll());
  if (const Mechanism* m = findMechanism(id.toStdString())) {
    const auto& info = m->info();
    return "<h3>" + qs(info.name).toHtmlEscaped() + "</h3><p>" +
           qs(info.description).toHtmlEscaped() + "</p><p><i>" +
           qs(info.reference).toHtmlEscaped() + "</i></p>";
  }
  return {};
}

TeachingPanel::TeachingPanel(QWidget* parent) : QTextBrowser(parent) {
  setOpenExternalLinks(true);
  setMinimumWidth(280);
}

void TeachingPanel::showFor(const Experiment& experiment, const ParameterSet& params,
                            const std::string& presetId) {
  QString html = teachingText(qs(experiment.info().id));
  if (html.isEmpty())
    html = "<h2>" + qs(experiment.info().title).toHtmlEscaped() + "</h2><p>" +
           qs(experiment.info().description).toHtmlEscaped() + "</p>";
  if (const QString preset = presetId.empty() ? QString() : teachingText(qs("preset-" + presetId));
      !preset.isEmpty())
    html = preset + "<hr><p><i>" + QObject::tr("About the experiment:") + "</i></p>" + html;
  if (const auto* ids = std::get_if<std::vector<std::string>>(
          params.find("mechanisms") ? params.find("mechanisms") : nullptr)) {
    for (const auto& id : *ids)
      html += "<hr>" + teachingText(qs(id));
  }
  html_ = fillPlaceholders(html, params);
  showHtml();
}

void TeachingPanel::showHtml() {
  const int scroll = verticalScrollBar() ? verticalScrollBar()->value() : 0;
  setHtml(html_);
  if (verticalScrollBar()) verticalScrollBar()->setValue(scroll);  // live updates keep the place
}

void TeachingPanel::setPresentationMode(bool on) {
  QFont f = font();
  f.setPointSizeF(QApplication::font().pointSizeF() * (on ? 1.6 : 1.0));
  setFont(f);
  document()->setDefaultFont(f);
  // Headings one step smaller than Qt's (x-large, large): in the enlarged text they would take
  // several lines of a panel beside the plot.
  document()->setDefaultStyleSheet(on ? QStringLiteral("h2 { font-size: large; } "
                                                       "h3 { font-size: medium; }")
                                      : QString());
  showHtml();  // the style sheet applies to HTML set after it
}

}  // namespace rfscope::ui
