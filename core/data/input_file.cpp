#include "core/data/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

const char* fileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string describeByteCount(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (value == static_cast<double>(static_cast<std::uint64_t>(value))) {
    std::snprintf(text, sizeof text, "%.0f %s", value, units[unit]);
  } else if (std::round(value * 10) == value * 10) {  // one decimal says it exactly: "1.5 MiB"
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  } else {  // rounded: the exact count too, or 256 MiB + 1 byte would read "256.0 MiB"
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return std::string(text) + " (" + std::to_string(bytes) + " bytes)";
  }
  return text;
}

InputFile::InputFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                     const std::string& kind)
    : path_(path), maxBytes_(maxBytes), kind_(kind) {
  const std::string name = "'" + path.string() + "'";
  // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever. It does nothing for
  // the regular files that get past the check below.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) throw DataError(name + ": cannot open: " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const int error = errno;
    ::close(fd_);
    throw DataError(name + ": cannot open: " + std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd_);
    throw DataError(name + ": is " + fileTypeName(info.st_mode) + ", not a regular file; a " +
                    kind + " must be a regular file");
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
  if (size_ > maxBytes_) {
    ::close(fd_);
    throw DataError(name + ": is " + describeByteCount(size_) + "; a " + kind + " may be at most " +
                    describeByteCount(maxBytes_));
  }
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

int InputFile::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

std::string InputFile::readAll() {
  const std::string name = "'" + path_.string() + "'";
  std::string content;
  content.resize(static_cast<std::size_t>(size_));
  std::uint64_t got = 0;
  while (true) {
    if (got == content.size()) {
      if (got > maxBytes_)
        throw DataError(name + ": grew past " + describeByteCount(maxBytes_) +
                        " while being read; a " + kind_ + " may be at most " +
                        describeByteCount(maxBytes_));
      // Room for more: the file may have grown since fstat (by one byte past the cap at most).
      content.resize(static_cast<std::size_t>(std::min(got + 65536, maxBytes_ + 1)));
    }
    const ssize_t n = ::read(fd_, content.data() + got, content.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw DataError(name + ": read error: " + std::strerror(errno));
    }
    if (n == 0) break;
    got += static_cast<std::uint64_t>(n);
  }
  content.resize(static_cast<std::size_t>(got));
  return content;
}

std::string readInputFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                          const std::string& kind) {
  return InputFile(path, maxBytes, kind).readAll();
}

}  // namespace rfscope
