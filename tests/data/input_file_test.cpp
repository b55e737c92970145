// Issue 12, item 6: reading /dev/zero ran out of memory, a FIFO with no writer blocked forever and
// a 2 GB sparse file was read whole. Files the user names are now opened without blocking, refused
// unless regular, and capped in size before a byte is read.

#include "core/data/input_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/data/data_error.h"
#include "core/data/idx_file.h"
#include "core/data/npy_file.h"
#include "core/data/vector_file.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

std::string inputReadError(const std::filesystem::path& path, std::uint64_t cap = 1024) {
  try {
    readInputFile(path, cap, "test file");
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

TEST(InputFile, ReadsARegularFileWhole) {
  const ScratchFolder folder;
  const std::string content(3000, 'v');
  EXPECT_EQ(readInputFile(folder.write("f.txt", content), 3000, "test file"), content);
  EXPECT_EQ(readInputFile(folder.write("empty.txt", ""), 10, "test file"), "");
}

TEST(InputFile, RefusesFifosWithoutWaitingForAWriter) {
  const ScratchFolder folder;
  const auto fifo = folder.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string message = inputReadError(fifo);  // returns at once: no writer is waited for
  EXPECT_NE(message.find("is a FIFO (named pipe), not a regular file"), std::string::npos)
      << message;
  // Every reader goes through it.
  EXPECT_THROW(readVectorFile(fifo), DataError);
  EXPECT_THROW(readIdxFile(fifo), DataError);
  EXPECT_THROW(readNpyFile(fifo), DataError);
}

TEST(InputFile, RefusesDevicesAndFolders) {
  const std::string zero = inputReadError("/dev/zero");
  EXPECT_NE(zero.find("'/dev/zero': is a character device"), std::string::npos) << zero;
  EXPECT_THROW(readVectorFile("/dev/zero"), DataError);
  EXPECT_THROW(readIdxFile("/dev/zero"), DataError);
  const ScratchFolder folder;
  EXPECT_NE(inputReadError(folder.path()).find("is a folder"), std::string::npos);
  EXPECT_NE(inputReadError(folder.path() / "missing").find("cannot open: No such file"),
            std::string::npos);
}

TEST(InputFile, RefusesFilesOverTheCapBeforeReadingThem) {
  const ScratchFolder folder;
  EXPECT_EQ(inputReadError(folder.write("at-cap", std::string(1024, 'x'))), "");
  const std::string message = inputReadError(folder.write("over", std::string(1025, 'x')));
  EXPECT_NE(message.find("is 1.0 KiB (1025 bytes); a test file may be at most 1 KiB"),
            std::string::npos)
      << message;
  // A sparse file of 2 GiB costs no disk and no memory: it is refused by its size alone.
  const auto sparse = folder.path() / "sparse.csv";
  const int fd = ::open(sparse.c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t{2} << 30), 0);
  ::close(fd);
  try {
    readVectorFile(sparse);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("is 2 GiB; a vector file may be at most 256 MiB"),
              std::string::npos)
        << e.what();
  }
}

TEST(InputFile, DescribesByteCounts) {
  EXPECT_EQ(describeByteCount(312), "312 bytes");
  EXPECT_EQ(describeByteCount(256 * kMiB), "256 MiB");
  EXPECT_EQ(describeByteCount(3 * kMiB / 2), "1.5 MiB");
  EXPECT_EQ(describeByteCount(std::uint64_t{1} << 40), "1 TiB");
  EXPECT_EQ(describeByteCount(256 * kMiB + 1), "256.0 MiB (268435457 bytes)");
}

}  // namespace
}  // namespace rfscope
