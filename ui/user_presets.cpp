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
  settings.setValue(name, QString::fromStdString(sessionToText(session)));
}

Session loadUserPreset(const QString& name) {
  QSettings settings;
  settings.beginGroup(kGroup);
  if (!settings.contains(name))
    throw std::runtime_error("no preset named '" + name.toStdString() + "'");
  const std::string text = settings.value(name).toString().toStdString();
  try {
    return sessionFromText(text);
  } catch (const std::exception& e) {
    throw std::runtime_error("preset '" + name.toStdString() + "' is corrupt: " + e.what());
  }
}

void removeUserPreset(const QString& name) {
  QSettings settings;
  settings.beginGroup(kGroup);
  settings.remove(name);
}

}  // namespace rfscope::ui
