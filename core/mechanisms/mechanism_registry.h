#pragma once
// Every mechanism RFScope knows, in display order. Adding a mechanism = one file + one line in the
// registry's .cpp (or, for a mechanism defined elsewhere, e.g. in a test, registerMechanism).

#include <string_view>
#include <vector>

#include "core/mechanisms/mechanism.h"

namespace rfscope {

const std::vector<const Mechanism*>& allMechanisms();
const Mechanism* findMechanism(std::string_view id);  // nullptr if unknown

// Appends a mechanism that lives outside the registry (it must outlive every use, and its id be
// new). Call it before anything reads the registry concurrently, e.g. at static initialisation.
void registerMechanism(const Mechanism& mechanism);

}  // namespace rfscope
