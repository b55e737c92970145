#include "core/io/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
  fs::path dir_;
};

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

}  // namespace
}  // namespace rfscope
