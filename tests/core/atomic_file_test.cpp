#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/temporary_files.h"

namespace rfscope {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rfscope-atomic-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(dir_);
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

mode_t modeOf(const fs::path& path) {
  struct stat info {};
  ::lstat(path.c_str(), &info);
  return info.st_mode;
}

std::string errorOf(const std::string& path, const std::string& content) {
  try {
    writeFileAtomically(path, content);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

// Death-test bodies (run in a child process).
[[noreturn]] void writeUnderAFileSizeLimit(const std::string& path) {
  std::signal(SIGXFSZ, SIG_IGN);
  const rlimit limit{4096, 4096};
  ::setrlimit(RLIMIT_FSIZE, &limit);
  const std::string message = errorOf(path, std::string(100000, 'x'));
  std::fprintf(stderr, "%s\n", message.c_str());
  std::_Exit(message.find("File too large") != std::string::npos ? 0 : 1);
}

// Creates `temporary` (registered while the signal arrives, or registered and released before).
void signalWhileRegistered(const fs::path& temporary, int signal, bool registeredAtSignal) {
  removeTemporariesOnTerminationSignals();
  {
    RegisteredTemporary registered(temporary.string());
    std::ofstream(temporary) << "half written";
    if (registeredAtSignal) std::raise(signal);
  }
  std::raise(signal);
}

TEST_F(AtomicFileTest, WritesAndReplacesWithoutLeavingTemporaries) {
  const fs::path target = dir_ / "out.csv";
  writeFileAtomically(target.string(), "first\n");
  writeFileAtomically(target.string(), "second\n");
  EXPECT_EQ(readAll(target), "second\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(AtomicFileTest, MissingDirectoryThrowsWithThePathAndKeepsNothing) {
  const fs::path target = dir_ / "no-such-dir" / "out.csv";
  try {
    writeFileAtomically(target.string(), "x");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(target));
}

TEST_F(AtomicFileTest, FailedWriteLeavesTheOldContent) {
  const fs::path target = dir_ / "keep.csv";
  writeFileAtomically(target.string(), "old\n");
  // A directory where the file should go cannot be replaced by rename.
  const fs::path blocked = dir_ / "blocked";
  fs::create_directories(blocked / "inner");
  EXPECT_THROW(writeFileAtomically(blocked.string(), "new\n"), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(blocked));
  EXPECT_EQ(readAll(target), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);
}

// Issue 12, item 12: overwriting a 0600 file made it 0644 (world-readable).
TEST_F(AtomicFileTest, KeepsThePermissionsOfTheFileItReplaces) {
  const fs::path target = dir_ / "private.csv";
  for (const mode_t mode : {0600, 0640, 0604}) {
    writeFileAtomically(target.string(), "old\n");
    ASSERT_EQ(::chmod(target.c_str(), mode), 0);
    writeFileAtomically(target.string(), "new\n");
    EXPECT_EQ(modeOf(target) & 0777, mode);
    EXPECT_EQ(readAll(target), "new\n");
  }
}

// The second adversarial campaign, item 5: replacing a file dropped its setgid and sticky bits and
// its extended attributes (ACLs, SELinux labels, user attributes).
TEST_F(AtomicFileTest, KeepsSpecialModeBitsAndExtendedAttributes) {
  const fs::path target = dir_ / "shared.csv";
  writeFileAtomically(target.string(), "old\n");
  ASSERT_EQ(::chmod(target.c_str(), 03640), 0);  // setgid and sticky on a file we own
  const char value[] = "figure-3";
  const bool attributes =
      ::setxattr(target.c_str(), "user.rfscope.test", value, sizeof value, 0) == 0;
  writeFileAtomically(target.string(), "new\n");
  EXPECT_EQ(readAll(target), "new\n");
  EXPECT_EQ(modeOf(target) & 07777, static_cast<mode_t>(03640));
  if (!attributes) GTEST_SKIP() << "this file system takes no user attributes";
  char read[32] = {};
  ASSERT_EQ(::getxattr(target.c_str(), "user.rfscope.test", read, sizeof read),
            static_cast<ssize_t>(sizeof value));
  EXPECT_STREQ(read, value);
}

TEST_F(AtomicFileTest, NewFilesFollowTheUmask) {
  const mode_t previous = ::umask(077);
  writeFileAtomically((dir_ / "a.csv").string(), "x");
  ::umask(022);
  writeFileAtomically((dir_ / "b.csv").string(), "x");
  ::umask(previous);
  EXPECT_EQ(modeOf(dir_ / "a.csv") & 0777, 0600u);
  EXPECT_EQ(modeOf(dir_ / "b.csv") & 0777, 0644u);
}

// Issue 12, item 2: a symbolic link was replaced by a regular file.
TEST_F(AtomicFileTest, ReplacesTheTargetOfASymbolicLinkAndKeepsTheLink) {
  const fs::path target = dir_ / "real.csv", link = dir_ / "link.csv";
  writeFileAtomically(target.string(), "old\n");
  fs::create_symlink("real.csv", link);  // relative, resolved beside the link
  writeFileAtomically(link.string(), "new\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(readAll(target), "new\n");
  EXPECT_EQ(entries(), 2u);
  // A dangling link: its target is created, as a shell's '>' does.
  const fs::path dangling = dir_ / "dangling.csv";
  fs::create_symlink(dir_ / "sub-missing.csv", dangling);
  writeFileAtomically(dangling.string(), "made\n");
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(readAll(dir_ / "sub-missing.csv"), "made\n");
}

// Issue 12, item 2: a character device became a regular file (as root, /dev/null would have).
TEST_F(AtomicFileTest, WritesThroughACharacterDeviceWithoutReplacingIt) {
  const fs::path link = dir_ / "null-link";
  fs::create_symlink("/dev/null", link);  // a link, so that a regression replaces only the link
  writeFileAtomically(link.string(), "discarded\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(S_ISCHR(modeOf("/dev/null")));
  // A device node of our own where permitted (root): it must stay one.
  const fs::path node = dir_ / "null-node";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    writeFileAtomically(node.string(), "discarded\n");
    EXPECT_TRUE(S_ISCHR(modeOf(node)));
  }
  // /dev/full: a write error is reported, not swallowed.
  if (fs::exists("/dev/full")) {
    EXPECT_NE(errorOf("/dev/full", "x").find("No space left on device"), std::string::npos);
  }
}

TEST_F(AtomicFileTest, WritesThroughAFifoThatHasAReader) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader, ready at once
  ASSERT_GE(reader, 0);
  writeFileAtomically(fifo.string(), "through the pipe\n");
  char buffer[64] = {};
  const ssize_t got = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, static_cast<std::size_t>(std::max<ssize_t>(got, 0))),
            "through the pipe\n");
  EXPECT_TRUE(S_ISFIFO(modeOf(fifo)));
}

TEST_F(AtomicFileTest, AFifoWithoutAReaderFailsAtOnceInsteadOfHanging) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(errorOf(fifo.string(), "x").find("no process reads"), std::string::npos);
  EXPECT_TRUE(S_ISFIFO(modeOf(fifo)));
}

// Issue 12, item 13: a 250-character name failed (its temporary's name was over NAME_MAX).
TEST_F(AtomicFileTest, AnyValidFileNameWorks) {
  const fs::path target = dir_ / (std::string(250, 'n') + ".csv");
  writeFileAtomically(target.string(), "long\n");
  EXPECT_EQ(readAll(target), "long\n");
  EXPECT_EQ(entries(), 1u);
  EXPECT_NE(errorOf("", "x").find("no file name"), std::string::npos);
  EXPECT_NE(errorOf(dir_.string(), "x").find("folder"), std::string::npos);
}

// Issue 12, item 1: a full disk truncated the file and reported success. A file-size limit makes
// the write fail the same way (EFBIG instead of ENOSPC), in a child process (death tests fork: the
// child writes into this test's folder, which the parent then checks).
TEST_F(AtomicFileTest, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  const fs::path target = dir_ / "keep.csv";
  writeFileAtomically(target.string(), "old\n");
  EXPECT_EXIT(writeUnderAFileSizeLimit(target.string()), ::testing::ExitedWithCode(0),
              "cannot write .*keep.csv.*: write failed: File too large");
  EXPECT_EQ(readAll(target), "old\n");
  EXPECT_EQ(entries(), 1u);
}

// Issue 12, item 8: SIGINT during an export left "big.png.tmp-<pid>-0" behind.
TEST_F(AtomicFileTest, ATerminationSignalRemovesRegisteredTemporaries) {
  const fs::path temporary = dir_ / ".rfscope-test.tmp";
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    EXPECT_EXIT(signalWhileRegistered(temporary, signal, true), ::testing::KilledBySignal(signal),
                "");  // the exit status still says "killed by signal"
    EXPECT_FALSE(fs::exists(temporary));
  }
  // Once unregistered (the write finished), nothing is removed.
  EXPECT_EXIT(signalWhileRegistered(temporary, SIGINT, false), ::testing::KilledBySignal(SIGINT),
              "");
  EXPECT_TRUE(fs::exists(temporary));
}

}  // namespace
}  // namespace rfscope
