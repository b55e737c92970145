#pragma once
// A display colour. The registries (mechanisms, couplings) own their entries' colours, so that a
// series looks the same in every experiment, export and front end; core has no Qt.

#include <cstdint>

namespace rfscope {

struct Rgb {
  std::uint8_t red = 0, green = 0, blue = 0;
  bool operator==(const Rgb&) const = default;
};

}  // namespace rfscope
