#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace rfscope {

void writeFileAtomically(const std::string& path, std::string_view content) {
  auto fail = [&](const std::string& what) {
    throw std::runtime_error("cannot write '" + path + "': " + what + ": " + std::strerror(errno));
  };
  std::string tmpl = path + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) fail("cannot create a temporary file beside it");
  const std::string tempPath(name.data());
  auto cleanupAndFail = [&](const std::string& what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(tempPath.c_str());
    errno = saved;
    fail(what);
  };
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      cleanupAndFail("write failed");
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  if (::fchmod(fd, 0644) != 0) cleanupAndFail("cannot set permissions");
  if (::fsync(fd) != 0) cleanupAndFail("flush failed");
  if (::close(fd) != 0) {
    ::unlink(tempPath.c_str());
    fail("close failed");
  }
  if (std::rename(tempPath.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tempPath.c_str());
    errno = saved;
    fail("rename failed");
  }
}

}  // namespace rfscope
