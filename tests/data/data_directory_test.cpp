#include "core/data/data_directory.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>

#include "core/data/mnist_regime.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

// Sets an environment variable for one scope and restores it afterwards.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, hadOld_ = true;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (hadOld_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool hadOld_ = false;
};

TEST(DataDirectory, FindsTheShippedMnistInTheSourceTree) {
  const auto file = findDataFile(MnistRegime::kShippedImages);
  ASSERT_FALSE(file.empty());
  EXPECT_TRUE(std::filesystem::is_regular_file(file));
  EXPECT_TRUE(findDataFile("mnist/no-such-file.gz").empty());
}

// The UCI datasets of resources/uci, found like the MNIST digits; their record counts
// (resources/uci/README.md) guard against a truncated or rewritten copy.
TEST(DataDirectory, FindsTheShippedUciDatasetsInTheBuildTree) {
  const std::pair<const char*, int> datasets[] = {
      {"abalone.data", 4177}, {"banknote.txt", 1372},  {"car.data", 1728}, {"chess.data", 28056},
      {"cmc.data", 1473},     {"nursery.data", 12960}, {"wifi.txt", 2000}, {"yeast.data", 1484}};
  for (const auto& [name, records] : datasets) {
    const auto file = findDataFile(std::filesystem::path("uci") / name);
    ASSERT_FALSE(file.empty()) << name;
    // Same data folder as the MNIST digits.
    EXPECT_EQ(file.parent_path().parent_path(),
              findDataFile(MnistRegime::kShippedImages).parent_path().parent_path());
    std::ifstream in(file, std::ios::binary);
    int nonBlankLines = 0;
    for (std::string line; std::getline(in, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) ++nonBlankLines;
    EXPECT_EQ(nonBlankLines, records) << name;
  }
}

TEST(DataDirectory, EnvironmentVariableComesFirst) {
  const ScratchFolder folder;
  std::filesystem::create_directories(folder.path() / "mnist");
  folder.write("mnist/mnist-10k-images-idx3-ubyte.gz", "relocated");
  const ScopedEnvironment environment("RFSCOPE_DATA_DIR", folder.path().string());
  EXPECT_EQ(dataDirectories().front(), folder.path());
  EXPECT_EQ(findDataFile(MnistRegime::kShippedImages), folder.path() / MnistRegime::kShippedImages);
}

TEST(DataDirectory, LooksNextToTheExecutable) {
  const auto folders = dataDirectories();
  const auto executableFolder = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  EXPECT_NE(std::find(folders.begin(), folders.end(), executableFolder / "data"), folders.end());
  EXPECT_NE(std::find(folders.begin(), folders.end(),
                      executableFolder.parent_path() / "share" / "rfscope"),
            folders.end());
}

}  // namespace
}  // namespace rfscope
