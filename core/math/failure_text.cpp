#include "core/math/failure_text.h"

#include <string_view>

namespace rfscope {

std::string failureText(const std::exception& error) {
  std::string text = error.what();
  constexpr std::string_view kBoost = "Error in function ";
  if (text.rfind(kBoost, 0) == 0) {
    if (const auto end = text.find("): "); end != std::string::npos) text = text.substr(end + 3);
  } else if (text.rfind("[json.exception.", 0) == 0) {
    if (const auto end = text.find("] "); end != std::string::npos) text = text.substr(end + 2);
  }
  return text;
}

}  // namespace rfscope
