#include "core/experiments/table.h"

namespace rfscope {

const Column* Table::column(const std::string& key) const {
  for (const auto& c : columns)
    if (c.key == key) return &c;
  return nullptr;
}

}  // namespace rfscope
