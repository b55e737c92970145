#include "core/data/data_directory.h"

#include <cstdlib>
#include <system_error>

namespace rfscope {

std::vector<std::filesystem::path> dataDirectories() {
  std::vector<std::filesystem::path> folders;
  if (const char* fromEnvironment = std::getenv("RFSCOPE_DATA_DIR");
      fromEnvironment && *fromEnvironment)
    folders.emplace_back(fromEnvironment);
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error && !executable.empty()) {
    const std::filesystem::path folder = executable.parent_path();
    folders.push_back(folder / "data");
    folders.push_back(folder.parent_path() / "share" / "rfscope");
  }
#ifdef RFSCOPE_SOURCE_DATA_DIR
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
