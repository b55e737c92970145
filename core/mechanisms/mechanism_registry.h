#pragma once
// Every mechanism RFScope knows, in display order. Adding a mechanism = one file + one line in the
// registry's .cpp.

#include <string_view>
#include <vector>

#include "core/mechanisms/mechanism.h"

namespace rfscope {

const std::vector<const Mechanism*>& allMechanisms();
const Mechanism* findMechanism(std::string_view id);  // nullptr if unknown

}  // namespace rfscope
