#pragma once
// The one conversion of the core's UTF-8 std::string (names, ids, messages) to the widgets'
// QString.

#include <QString>

#include <string>

namespace rfscope::ui {

inline QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace rfscope::ui
