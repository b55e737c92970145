#pragma once
// Presets the user saved from the app, kept in QSettings as session JSON under a name.

#include <QString>
#include <QStringList>

#include "ui/session.h"

namespace rfscope::ui {

QStringList userPresetNames();
void saveUserPreset(const QString& name, const Session& session);
Session loadUserPreset(const QString& name);  // throws if missing or no longer valid
void removeUserPreset(const QString& name);

}  // namespace rfscope::ui
