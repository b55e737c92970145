#pragma once
// Writes a file so that readers see either the old content or the complete new one, never a torn
// write: the data goes to a temporary file in the same directory, is flushed, then renamed over the
// target. On failure the target is untouched and std::runtime_error names the path and the reason.

#include <string>
#include <string_view>

namespace rfscope {

void writeFileAtomically(const std::string& path, std::string_view content);

}  // namespace rfscope
