#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/io/temporary_files.h"

namespace rfscope {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw std::runtime_error("cannot write '" + path + "': " + what +
                           (error ? std::string(": ") + std::strerror(error) : std::string()));
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Where a chain of symbolic links ends, for a link whose final target does not exist yet (a
// dangling link: writing creates its target, as a shell's '>' does).
std::string danglingLinkTarget(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
    char buffer[PATH_MAX];
    const ssize_t length = ::readlink(current.c_str(), buffer, sizeof buffer);
    if (length < 0 || length == static_cast<ssize_t>(sizeof buffer))
      fail(path, "cannot read the symbolic link", length < 0 ? errno : ENAMETOOLONG);
    const std::string target(buffer, static_cast<std::size_t>(length));
    current = target.front() == '/' ? target : directoryOf(current) + "/" + target;
  }
  fail(path, "cannot follow the symbolic link", ELOOP);
}

void writeAll(int fd, std::string_view content, const std::function<void(const char*)>& onError) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      onError("write failed");
      return;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

// Devices, FIFOs: written in place. O_NONBLOCK only for the open, so that a FIFO without a reader
// fails (ENXIO) instead of blocking forever — after a second's grace for a reader that is just
// starting (as in "cat fifo & rfscope-cli … --csv fifo").
void writeThrough(const std::string& path, std::string_view content) {
  int fd = -1;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0 || errno != ENXIO) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (fd < 0) {
    if (errno == ENXIO) fail(path, "it is a FIFO or socket that no process reads", 0);
    fail(path, "cannot open", errno);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  writeAll(fd, content, [&](const char* what) {
    const int saved = errno;
    ::close(fd);
    fail(path, what, saved);
  });
  if (::close(fd) != 0 && errno != EINTR) fail(path, "close failed", errno);
}

// Creates a new temporary beside `target` with O_EXCL (registered for removal on a signal before
// it exists). Its name is short, so a target name of any valid length leaves room for it.
int createTemporary(const std::string& path, const std::string& target, mode_t mode,
                    std::string& temporary, std::unique_ptr<RegisteredTemporary>& registered) {
  static std::atomic<unsigned> counter{0};
  const std::string prefix = directoryOf(target) + "/.rfscope-" + std::to_string(::getpid()) + "-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = prefix + std::to_string(counter++) + ".tmp";
    registered = std::make_unique<RegisteredTemporary>(temporary);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    registered.reset();
    if (errno != EEXIST) break;
  }
  const int error = errno;
  const std::string folder = "the folder '" + directoryOf(target) + "'";
  if (error == ENOENT) fail(path, folder + " does not exist", 0);
  if (error == EACCES || error == EROFS) fail(path, folder + " is not writable", error);
  fail(path, "cannot create a temporary file beside it", error);
}

// The extended attributes of `from` onto the open file `to`, each where this process may set it
// (security.* and trusted.* may need privileges: those it may not are left, the file is written).
void copyExtendedAttributes(const std::string& from, int to) {
  const ssize_t size = ::listxattr(from.c_str(), nullptr, 0);
  if (size <= 0) return;
  std::vector<char> names(static_cast<std::size_t>(size));
  const ssize_t listed = ::listxattr(from.c_str(), names.data(), names.size());
  if (listed <= 0) return;
  for (std::size_t at = 0; at < static_cast<std::size_t>(listed);) {
    const char* name = names.data() + at;
    at += std::strlen(name) + 1;
    const ssize_t length = ::getxattr(from.c_str(), name, nullptr, 0);
    if (length < 0) continue;
    std::vector<char> value(static_cast<std::size_t>(length));
    const ssize_t read = ::getxattr(from.c_str(), name, value.data(), value.size());
    if (read >= 0) (void)::fsetxattr(to, name, value.data(), static_cast<std::size_t>(read), 0);
  }
}

void replaceAtomically(const std::string& path, const std::string& target, std::string_view content,
                       const struct stat* existing) {
  std::string temporary;
  std::unique_ptr<RegisteredTemporary> registered;
  // An existing file's content never sits in a temporary more open than the file itself.
  const int fd = createTemporary(path, target, existing ? 0600 : 0666, temporary, registered);
  auto abandon = [&](const char* what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    fail(path, what, saved);
  };
  if (existing) {
    // Owner and group where allowed (as root, or a group we belong to); then the mode, which a
    // change of owner may have cleared bits of.
    if (::fchown(fd, existing->st_uid, existing->st_gid) != 0 &&
        ::fchown(fd, static_cast<uid_t>(-1), existing->st_gid) != 0) {
      // Not permitted: the file becomes ours, with its old mode.
    }
    // Extended attributes — POSIX ACLs, SELinux labels, user attributes — where allowed; then
    // every mode bit, setgid and sticky included.
    copyExtendedAttributes(target, fd);
    if (::fchmod(fd, existing->st_mode & 07777) != 0) abandon("cannot set permissions");
  }
  writeAll(fd, content, abandon);
  if (::fsync(fd) != 0) abandon("flush failed");
  if (::close(fd) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    fail(path, "close failed", saved);
  }
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    fail(path, "rename failed", saved);
  }
  // The rename itself durable too (best effort: some file systems refuse to sync a directory).
  const int directory = ::open(directoryOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {
    ::fsync(directory);
    ::close(directory);
  }
}

}  // namespace

void writeFileAtomically(const std::string& path, std::string_view content) {
  if (path.empty()) fail(path, "no file name given", 0);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) fail(path, "it is a folder", 0);
    if (!S_ISREG(info.st_mode)) return writeThrough(path, content);
    // A regular file, maybe behind symbolic links: replace the file, keep the links.
    std::string target = path;
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      const std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr),
                                                                 &std::free);
      if (!resolved) fail(path, "cannot resolve the symbolic link", errno);
      target = resolved.get();
    }
    return replaceAtomically(path, target, content, &info);
  }
  if (errno != ENOENT) fail(path, "cannot access", errno);
  replaceAtomically(path, danglingLinkTarget(path), content, nullptr);
}

}  // namespace rfscope
