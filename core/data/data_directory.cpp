#include "core/data/data_directory.h"

#include <dlfcn.h>

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

// The absolute path of the executable or shared library this function was loaded from.
std::filesystem::path codeFile() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&codeFile), &info) == 0 || !info.dli_fname) return {};
  std::error_code error;
  const std::filesystem::path path = std::filesystem::canonical(info.dli_fname, error);
  return error ? std::filesystem::path() : path;
}

}  // namespace

std::vector<std::filesystem::path> dataDirectories() {
  std::vector<std::filesystem::path> folders;
  if (const char* fromEnvironment = std::getenv("RFSCOPE_DATA_DIR");
      fromEnvironment && *fromEnvironment)
    folders.emplace_back(fromEnvironment);
  // The file that holds this code: the executable, or the Python module's shared library (whose
  // interpreter, /proc/self/exe, says nothing about where RFScope lies); then the executable.
  std::vector<std::filesystem::path> binaries;
  if (const auto code = codeFile(); !code.empty()) binaries.push_back(code);
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error && !executable.empty() &&
      std::find(binaries.begin(), binaries.end(), executable) == binaries.end())
    binaries.push_back(executable);
  for (const auto& binary : binaries) {
    const std::filesystem::path folder = binary.parent_path();
    folders.push_back(folder / "data");
    folders.push_back(folder.parent_path() / "share" / "rfscope");
  }
#if defined(RFSCOPE_SOURCE_DATA_DIR) && defined(RFSCOPE_BUILD_DIR)
  if (binaries.empty() || isInside(binaries.front(), RFSCOPE_BUILD_DIR))
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
