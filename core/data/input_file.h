#pragma once
// Files the user names (vector files, IDX, NPY, sessions), opened safely: only a regular file is
// read — a folder, a FIFO, a device such as /dev/zero or a socket is refused before any byte is
// read, and opening never blocks — and only up to a size cap, checked before reading and again
// while reading (a file that grows meanwhile is still cut off). Problems throw DataError naming the
// file.

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/data/input_limits.h"

namespace rfscope {

// "256 MiB", "1.5 GiB", "312 bytes".
std::string describeByteCount(std::uint64_t bytes);

// An open regular file no larger than a cap.
class InputFile {
 public:
  // `kind` names the kind of file in messages ("vector file", "session").
  InputFile(const std::filesystem::path& path, std::uint64_t maxBytes, const std::string& kind);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::uint64_t size() const { return size_; }
  // The descriptor, handed over: the caller closes it (e.g. through gzclose after gzdopen).
  int release();
  // The whole content (throws DataError on a read error or when it grew past the cap).
  std::string readAll();

 private:
  std::filesystem::path path_;
  std::uint64_t maxBytes_;
  std::string kind_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// InputFile(path, maxBytes, kind).readAll().
std::string readInputFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                          const std::string& kind);

}  // namespace rfscope
