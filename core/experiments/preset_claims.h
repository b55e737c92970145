#pragma once
// Each preset's claim (claim.h): the sentence it puts under its figure and the assertions over
// its table that make the sentence checkable. Kept apart from the presets' parameters so that a
// claim reads next to its assertions.

#include <string_view>

#include "core/experiments/claim.h"

namespace rfscope {

// The preset's claim; an empty claim for an unknown id.
Claim presetClaim(std::string_view presetId);

}  // namespace rfscope
