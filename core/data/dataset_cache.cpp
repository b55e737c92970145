#include "core/data/dataset_cache.h"

#include <list>
#include <mutex>

namespace rfscope {
namespace {

constexpr std::size_t kCapacity = 8;

struct Entry {
  std::string key;  // kind + '\n' + absolute path
  std::uintmax_t size = 0;
  std::filesystem::file_time_type modified;
  std::shared_ptr<const void> value;
};

std::mutex cacheMutex;
std::list<Entry> entries;  // most recently used first

}  // namespace

DatasetCache& DatasetCache::instance() {
  static DatasetCache cache;
  return cache;
}

void DatasetCache::clear() {
  const std::lock_guard lock(cacheMutex);
  entries.clear();
}

std::shared_ptr<const void> DatasetCache::getErased(
    const std::filesystem::path& file, const std::string& kind,
    const std::function<std::shared_ptr<const void>()>& load) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(file, error);
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  const auto modified =
      error ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(file, error);
  if (error) return load();  // not a readable file: let the loader report it
  const std::string key = kind + '\n' + absolute.string();

  // Loading under the lock keeps two runs from parsing the same file at once; loads are rare.
  const std::lock_guard lock(cacheMutex);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->key != key) continue;
    if (it->size == size && it->modified == modified) {
      entries.splice(entries.begin(), entries, it);
      return entries.front().value;
    }
    entries.erase(it);
    break;
  }
  std::shared_ptr<const void> value = load();
  entries.push_front({key, size, modified, value});
  if (entries.size() > kCapacity) entries.pop_back();
  return value;
}

}  // namespace rfscope
