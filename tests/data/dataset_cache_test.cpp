#include "core/data/dataset_cache.h"

#include <gtest/gtest.h>

#include <thread>

#include "scratch_folder.h"

namespace rfscope {
namespace {

TEST(DatasetCache, LoadsAFileOnceUntilItChanges) {
  const ScratchFolder folder;
  const auto file = folder.write("a.txt", "one");
  int loads = 0;
  auto load = [&]() -> std::shared_ptr<const std::string> {
    ++loads;
    return std::make_shared<const std::string>(ScratchFolder::read(file));
  };
  auto& cache = DatasetCache::instance();
  EXPECT_EQ(*cache.get<std::string>(file, "text", load), "one");
  EXPECT_EQ(*cache.get<std::string>(file, "text", load), "one");
  EXPECT_EQ(loads, 1);
  cache.get<std::string>(file, "other-kind", load);  // a different use of the same file
  EXPECT_EQ(loads, 2);

  folder.write("a.txt", "changed");  // another size: reloaded
  EXPECT_EQ(*cache.get<std::string>(file, "text", load), "changed");
  EXPECT_EQ(loads, 3);
  cache.clear();
  cache.get<std::string>(file, "text", load);
  EXPECT_EQ(loads, 4);
}

TEST(DatasetCache, FailuresAreNotCached) {
  const ScratchFolder folder;
  const auto file = folder.write("b.txt", "x");
  int loads = 0;
  auto failing = [&]() -> std::shared_ptr<const int> {
    ++loads;
    throw std::runtime_error("bad");
  };
  EXPECT_THROW(DatasetCache::instance().get<int>(file, "int", failing), std::runtime_error);
  EXPECT_THROW(DatasetCache::instance().get<int>(file, "int", failing), std::runtime_error);
  EXPECT_EQ(loads, 2);
  // A missing file goes straight to the loader, which reports it.
  EXPECT_THROW(DatasetCache::instance().get<int>(folder.path() / "none", "int", failing),
               std::runtime_error);
}

}  // namespace
}  // namespace rfscope
