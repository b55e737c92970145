#include "core/data/data_directory.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace rfscope {
namespace {

// Whether `path` lies inside `folder` (both absolute; symbolic links in `folder` resolved).
bool isInside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  std::error_code error;
  const std::filesystem::path canonicalFolder = std::filesystem::weakly_canonical(folder, error);
  if (error) return false;
  return std::mismatch(canonicalFolder.begin(), canonicalFolder.end(), path.begin(), path.end())
             .first == canonicalFolder.end();
}

}  // namespace

std::vector<std::filesystem::path> dataDirectories() {
  std::vector<std::filesystem::path> folders;
  if (const char* fromEnvironment = std::getenv("RFSCOPE_DATA_DIR");
      fromEnvironment && *fromEnvironment)
    folders.emplace_back(fromEnvironment);
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  const bool executableKnown = !error && !executable.empty();
  if (executableKnown) {
    const std::filesystem::path folder = executable.parent_path();
    folders.push_back(folder / "data");
    folders.push_back(folder.parent_path() / "share" / "rfscope");
  }
#if defined(RFSCOPE_SOURCE_DATA_DIR) && defined(RFSCOPE_BUILD_DIR)
  if (!executableKnown || isInside(executable, RFSCOPE_BUILD_DIR))
    folders.emplace_back(RFSCOPE_SOURCE_DATA_DIR);
#endif
  return folders;
}

std::filesystem::path findDataFile(const std::filesystem::path& relativePath) {
  for (const auto& folder : dataDirectories()) {
    std::error_code error;
    const std::filesystem::path candidate = folder / relativePath;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
  }
  return {};
}

}  // namespace rfscope
