#pragma once
// One colour per mechanism/coupling id, the same in every experiment and export.

#include <QColor>
#include <string>

namespace rfscope::ui {

QColor seriesColor(const std::string& colorKey);

}  // namespace rfscope::ui
