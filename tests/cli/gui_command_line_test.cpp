// The desktop app's command line, end to end on the real `rfscope` (offscreen): issue 12, items 4
// and 5.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct GuiResult {
  int exitCode = -1;  // -1: killed (e.g. by the timeout)
  std::string err;
};

// Runs rfscope offscreen, killed after `seconds` (exit code -1 then).
GuiResult runGui(const std::string& arguments, int seconds = 120) {
  const fs::path dir =
      fs::temp_directory_path() / ("rfscope-gui-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path err = dir / "stderr.txt";
  const std::string command = "QT_QPA_PLATFORM=offscreen timeout -s KILL " +
                              std::to_string(seconds) + " '" + RFSCOPE_GUI_PATH + "' " + arguments +
                              " 2>'" + err.string() + "' >/dev/null";
  const int status = std::system(command.c_str());
  GuiResult result;
  result.exitCode = WIFEXITED(status) && WEXITSTATUS(status) != 137 ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  result.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return result;
}

class GuiCommandLine : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rfscope-gui-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name) << content;
    return "'" + (dir_ / name).string() + "'";
  }
  fs::path dir_;
};

// Item 4: "--session FILE" (the README's form) was taken by Qt's own -session option and ignored:
// a missing file showed the defaults with exit 0.
TEST_F(GuiCommandLine, Item4_SessionFileInTheReadmeFormIsOpened) {
  GuiResult r = runGui("--session " + (dir_ / "missing.json").string(), 60);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("cannot read session"), std::string::npos) << r.err;
  // A session the app refuses proves the file was read.
  const std::string bad = file(
      "bad.json",
      R"({"format":"rfscope-session","version":1,"experiment":"variance-vs-sigma","parameters":{"d":0}})");
  r = runGui("--session " + bad, 60);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("parameter 'd'"), std::string::npos) << r.err;
  r = runGui("--session=" + bad, 60);
  EXPECT_EQ(r.exitCode, 2) << r.err;
}

// Item 5: --screenshot never exited when validation blocked the run (40 s timeout observed). Here
// the session itself is valid, but its σ range, shown to three significant digits (the panel's
// spin boxes), collapses to 0.00100 … 0.00100, which validation refuses.
TEST_F(GuiCommandLine, Item5_ScreenshotExitsWhenTheRunCannotStart) {
  const std::string blocked = file("blocked.json", R"({"format":"rfscope-session","version":1,
      "experiment":"variance-vs-sigma","parameters":{"sigma-min":0.001001,"sigma-max":0.001004}})");
  const GuiResult r =
      runGui("--session " + blocked + " --screenshot " + (dir_ / "shot.png").string(), 60);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("not run: parameter 'sigma-max'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "shot.png"));
}

TEST_F(GuiCommandLine, ScreenshotOfASessionIsWritten) {
  const std::string session = file("ok.json", R"({"format":"rfscope-session","version":1,
      "experiment":"variance-vs-sigma","parameters":{"sigma-steps":5,"pairs":3}})");
  const GuiResult r =
      runGui("--session " + session + " --screenshot " + (dir_ / "shot.png").string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::ifstream png(dir_ / "shot.png", std::ios::binary);
  std::string head(4, '\0');
  png.read(head.data(), 4);
  EXPECT_EQ(head.substr(1), "PNG");
}

// The second adversarial campaign, item 13: --size 20000x20000 --screenshot took 6 GB; the CLI
// caps PNGs at 100 megapixels, and so does the app's window now. And an RFSCOPE_SIMD the CPU
// cannot run is refused before any window opens.
TEST_F(GuiCommandLine, OversizedWindowsAndUnknownSimdSetsAreRefusedAtOnce) {
  const GuiResult huge = runGui("--size 20000x20000 --screenshot " + (dir_ / "a.png").string(), 60);
  EXPECT_EQ(huge.exitCode, 2) << huge.err;
  EXPECT_NE(huge.err.find("--size 20000x20000 is too large"), std::string::npos) << huge.err;
  EXPECT_FALSE(fs::exists(dir_ / "a.png"));
  ::setenv("RFSCOPE_SIMD", "neon", 1);
  const GuiResult simd = runGui("--screenshot " + (dir_ / "b.png").string(), 60);
  ::unsetenv("RFSCOPE_SIMD");
  EXPECT_EQ(simd.exitCode, 2) << simd.err;
  EXPECT_NE(simd.err.find("RFSCOPE_SIMD='neon' is not an instruction set"), std::string::npos)
      << simd.err;
  EXPECT_FALSE(fs::exists(dir_ / "b.png"));
}

}  // namespace
