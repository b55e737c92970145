#pragma once
// Data loaded from files, kept for reuse: validation and the run that follows, and every later run
// with the same file, parse it once. An entry is reloaded when the file changes on disk (size or
// modification time). Thread-safe; holds the few most recently used entries.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace rfscope {

class DatasetCache {
 public:
  static DatasetCache& instance();

  // The value `load` made from `file` under `kind` (e.g. "idx", "vectors"), loading it now unless a
  // cached copy is still current. Exceptions from `load` propagate and nothing is cached.
  template <class T>
  std::shared_ptr<const T> get(const std::filesystem::path& file, const std::string& kind,
                               const std::function<std::shared_ptr<const T>()>& load) {
    return std::static_pointer_cast<const T>(
        getErased(file, kind, [&load]() -> std::shared_ptr<const void> { return load(); }));
  }

  void clear();

 private:
  DatasetCache() = default;
  std::shared_ptr<const void> getErased(const std::filesystem::path& file, const std::string& kind,
                                        const std::function<std::shared_ptr<const void>()>& load);
};

}  // namespace rfscope
