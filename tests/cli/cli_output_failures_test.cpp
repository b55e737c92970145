// End-to-end regression tests of the second adversarial campaign's findings about outputs and
// messages (issue "Nothing lost, nothing crashes, nothing unbounded", items 2, 3, 4 and 15), and
// of the SIMD cap (RFSCOPE_SIMD) on the real rfscope-cli.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_runner.h"

namespace rfscope::test {
namespace {

namespace fs = std::filesystem;

class CliOutputFailures : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratchDir() / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string quoted(const std::string& name) const { return "'" + path(name) + "'"; }

  fs::path dir_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kSmallRun = "run variance-vs-sigma --set sigma-steps=50 --set pairs=5 ";
const std::string kSmallMc = "mc --mechanism pos --x 0.1,0.2 --y 0.3,0.1 --m 4 --trials 2000 ";

// Item 3: a full standard output exited 0 with the output cut short (or empty).
TEST_F(CliOutputFailures, Item3_AFullStandardOutputFailsTheRun) {
  for (const std::string& command :
       {kSmallRun, kSmallMc, std::string("analytic --mechanism pos --x 0.1 --y 0.2"),
        std::string("list"), std::string("--help")}) {
    SCOPED_TRACE(command);
    const CliResult r = runCli(command + " >/dev/full");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "could not write standard output")) << r.err;
    EXPECT_TRUE(contains(r.err, "No space left on device")) << r.err;
  }
}

// Item 3: a reader that goes away ended the program with SIGPIPE (exit 141 in a shell).
TEST_F(CliOutputFailures, Item3_AReaderThatGoesAwayIsAFailedWriteNotASignal) {
  // A CSV far beyond a pipe's 64 KiB buffer, read by a reader that takes one byte and leaves.
  const std::string command = "bash -c \"'" RFSCOPE_CLI_PATH
                              "' run variance-vs-sigma --set sigma-steps=2000 --set pairs=5 "
                              "2>" +
                              quoted("err") +
                              " | head -c 1 >/dev/null; exit "
                              "\\${PIPESTATUS[0]}\"";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_TRUE(contains(readFile(path("err")), "could not write standard output: Broken pipe"))
      << readFile(path("err"));
}

// Item 4: --csv X --json X exited 0, the CSV lost under the JSON.
TEST_F(CliOutputFailures, Item4_TwoOutputsNamingOneFileAreRefused) {
  const CliResult same = runCli(kSmallRun + "--csv " + quoted("x") + " --json " + quoted("x"));
  EXPECT_EQ(same.exitCode, 2) << same.err;
  EXPECT_TRUE(contains(same.err, "--csv and --json name the same file")) << same.err;
  EXPECT_FALSE(fs::exists(path("x")));
  // Through a link, and through another spelling of the folder.
  std::ofstream(path("target.csv")) << "old";
  fs::create_symlink(path("target.csv"), path("link.csv"));
  const CliResult linked =
      runCli(kSmallRun + "--csv " + quoted("link.csv") + " --svg " + quoted("target.csv"));
  EXPECT_EQ(linked.exitCode, 2) << linked.err;
  EXPECT_TRUE(contains(linked.err, "--csv and --svg name the same file")) << linked.err;
  EXPECT_EQ(readFile(path("target.csv")), "old");
  const CliResult spelled = runCli(kSmallRun + "--json " + quoted("y.json") + " --png '" +
                                   (dir_ / "." / "y.json").string() + "'");
  EXPECT_EQ(spelled.exitCode, 2) << spelled.err;
  // Different files are fine.
  const CliResult two =
      runCli(kSmallRun + "--csv " + quoted("a.csv") + " --json " + quoted("a.json"));
  EXPECT_EQ(two.exitCode, 0) << two.err;
}

// Item 2: a platform named in the environment that cannot start (xcb with no display) aborted
// the plot after the CSV was written.
TEST_F(CliOutputFailures, Item2_PlotsRenderHeadlessWhateverTheEnvironmentSays) {
  const CliResult r = runCli(kSmallRun + "--csv " + quoted("x.csv") + " --png " + quoted("x.png"),
                             "QT_QPA_PLATFORM=xcb DISPLAY= WAYLAND_DISPLAY= ");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_GT(fs::file_size(path("x.png")), 1000u);
}

// Item 15: no arguments printed the usage on stdout with exit 2; exit 2 writes nothing there.
TEST_F(CliOutputFailures, Item15_NoArgumentsIsBadInputWithTheUsageOnStandardError) {
  const CliResult r = runCli("");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(contains(r.err, "usage: rfscope-cli")) << r.err;
  const CliResult help = runCli("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_TRUE(contains(help.out, "usage: rfscope-cli"));
}

// RFSCOPE_SIMD: an unknown set is refused with the list of sets; mc names the set it ran with.
TEST_F(CliOutputFailures, SimdCapIsReportedAndAnUnknownSetRefused) {
  const CliResult unknown = runCli(kSmallMc, "RFSCOPE_SIMD=neon");
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_TRUE(unknown.out.empty());
  EXPECT_TRUE(contains(unknown.err,
                       "RFSCOPE_SIMD='neon' is not an instruction set (scalar, sse4, "
                       "avx2, avx512)"))
      << unknown.err;
  const CliResult scalar = runCli(kSmallMc + "--backend cpu", "RFSCOPE_SIMD=scalar");
  ASSERT_EQ(scalar.exitCode, 0) << scalar.err;
  EXPECT_EQ(nlohmann::json::parse(scalar.out).at("simd_target"), "scalar");
  const CliResult native = runCli(kSmallMc + "--backend cpu");
  ASSERT_EQ(native.exitCode, 0) << native.err;
  const auto nativeJson = nlohmann::json::parse(native.out);
  EXPECT_TRUE(nativeJson.at("simd_target").is_string());
  // The same numbers on every set.
  EXPECT_EQ(nativeJson.at("log_variance"), nlohmann::json::parse(scalar.out).at("log_variance"));
}

}  // namespace
}  // namespace rfscope::test
