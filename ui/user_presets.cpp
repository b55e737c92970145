#include "ui/user_presets.h"

#include <QSettings>
#include <stdexcept>

namespace rfscope::ui {
namespace {
const QString kGroup = QStringLiteral("userPresets");
}

QStringList userPresetNames() {
  QSettings settings;
  settings.beginGroup(kGroup);
  QStringList names = settings.childKeys();
  names.sort(Qt::CaseInsensitive);
  return names;
}

void saveUserPreset(const QString& name, const Session& session) {
  QSettings settings;
  settings.beginGroup(kGroup);
  settings.setValue(name, QString::fromStdString(sessionToJson(session).dump()));
}

Session loadUserPreset(const QString& name) {
  QSettings settings;
  settings.beginGroup(kGroup);
  if (!settings.contains(name))
    throw std::runtime_error("no preset named '" + name.toStdString() + "'");
  const std::string text = settings.value(name).toString().toStdString();
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded())
    throw std::runtime_error("preset '" + name.toStdString() + "' is corrupt");
  return sessionFromJson(json);
}

void removeUserPreset(const QString& name) {
  QSettings settings;
  settings.beginGroup(kGroup);
  settings.remove(name);
}

}  // namespace rfscope::ui
