// End-to-end regression tests of the second adversarial campaign's findings about outputs and
// messages (issue "Nothing lost, nothing crashes, nothing unbounded", items 2, 3, 4 and 15), and
// of the SIMD cap (RFSCOPE_SIMD) on the real rfscope-cli.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace rfscope::test {
namespace {

namespace fs = std::filesystem;

class CliOutputFailures : public CliScratchTest {};

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
  // A number beyond a double says which way it falls out, instead of "not a finite number".
  const CliResult tiny = runCli("analytic --mechanism pos --x 1e-400 --y 0.5");
  EXPECT_EQ(tiny.exitCode, 2);
  EXPECT_TRUE(contains(tiny.err, "--x: '1e-400' is too small for a double: it underflows"))
      << tiny.err;
  const CliResult huge = runCli("run variance-vs-sigma --set sigma-max=1e400");
  EXPECT_EQ(huge.exitCode, 2);
  EXPECT_TRUE(contains(huge.err, "'1e400' is too large for a double")) << huge.err;
  const CliResult help = runCli("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_TRUE(contains(help.out, "usage: rfscope-cli"));
  // A command's --help was refused as an unknown option (exit 2).
  for (const char* command : {"run --help", "run attention-error -h", "mc --help", "list --help"}) {
    const CliResult commandHelp = runCli(command);
    EXPECT_EQ(commandHelp.exitCode, 0) << command << ": " << commandHelp.err;
    EXPECT_TRUE(contains(commandHelp.out, "usage: rfscope-cli")) << command;
  }
}

// Item 6: simplex couplings in d = 1 gave NaN cells (attention) or accuracy 0 (a one-feature
// dataset) with exit 0; mc already refused d = 1. Every path refuses it now, naming the reason.
TEST_F(CliOutputFailures, Item6_ASimplexBlockInOneDimensionIsRefusedEverywhere) {
  const CliResult attention = runCli("run attention-error --set d=1 --set couplings=simrf");
  EXPECT_EQ(attention.exitCode, 2) << attention.err;
  EXPECT_TRUE(contains(attention.err, "simrf needs d >= 2")) << attention.err;
  std::ofstream(path("one.csv")) << "x,label\n0.1,a\n0.4,b\n0.2,a\n0.9,b\n0.3,a\n0.8,b\n";
  const CliResult classification =
      runCli("run classification --set dataset=file --set file=" + quoted("one.csv") +
             " --set couplings=simrf-fast --set repeats=2");
  EXPECT_EQ(classification.exitCode, 2) << classification.err;
  EXPECT_TRUE(contains(classification.err, "simrf-fast needs d >= 2")) << classification.err;
  const CliResult mc = runCli("mc --mechanism pos --coupling simrf --x 0.1 --y 0.2 --trials 200");
  EXPECT_EQ(mc.exitCode, 2) << mc.err;
  EXPECT_TRUE(contains(mc.err, "simrf needs d >= 2")) << mc.err;
}

// Item 11: where the exact variance is 0 (PoisRF+ in d = 1), mc reported round-off (1.6e-32) with
// an interval 40 standard errors away from 0.
TEST_F(CliOutputFailures, Item11_RoundOffIsNotReportedAsVariance) {
  const CliResult r = runCli("mc --mechanism pois-plus --x 0.3 --y 0.5 --m 4 --trials 4000");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("variance"), 0.0) << r.out;
  EXPECT_EQ(j.at("ci95"), nlohmann::json::array({0.0, 0.0}));
  EXPECT_FALSE(j.at("heavy_tail").get<bool>());
  // A variance that is small but real stays: PosRF at a tiny input.
  const CliResult small = runCli("mc --mechanism pos --x 1e-6 --y 2e-6 --m 4 --trials 4000");
  ASSERT_EQ(small.exitCode, 0) << small.err;
  EXPECT_GT(nlohmann::json::parse(small.out).at("variance").get<double>(), 0.0);
}

// Item 8: analytic PosRF at x = 1e16, y = 0.5 printed log_variance 0 (cancellation of two ~1e32
// norms); the true value is 4xy = 2e16 (mpmath: tests/reference/extreme_references.json).
TEST_F(CliOutputFailures, Item8_HugeInputsKeepThePositiveClosedFormsExact) {
  for (const char* mechanism : {"pos", "pos-hyp"}) {
    const CliResult r =
        runCli(std::string("analytic --mechanism ") + mechanism + " --x 1e16 --y 0.5");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out).at("log_variance").get<double>(), 2e16)
        << mechanism;
  }
}

// Item 9: one "N/A" cell turned a numeric column into category codes (exact accuracy 0.85 →
// 0.55, no message). Missing-value marks are refused wherever they stand, naming the cell.
TEST_F(CliOutputFailures, Item9_AMissingValueMarkIsRefusedNotReadAsACategory) {
  for (const char* mark : {"N/A", "NA", "null", "nan", "?"}) {
    SCOPED_TRACE(mark);
    std::ofstream(path("data.csv")) << "width,height,label\n0.1,1.5,a\n0.4," << mark
                                    << ",b\n0.2,1.1,a\n0.9,2.0,b\n0.3,1.2,a\n0.8,2.2,b\n";
    const CliResult r =
        runCli("run classification --set dataset=file --set file=" + quoted("data.csv") +
               " --set repeats=2 --set features=2");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "line 3")) << r.err;
    EXPECT_TRUE(contains(r.err, "missing value")) << r.err;
  }
}

// Item 13: aderf/sderf at d = 10000 took over 4 GB (dense d × d matrices, no limit on --x).
TEST_F(CliOutputFailures, Item13_DenseMechanismsTakeAtMost1024Dimensions) {
  std::string x = "0.01";
  for (int i = 1; i < 1025; ++i)
    x += ",0.01";
  for (const char* command : {"analytic", "mc"}) {
    const CliResult r = runCli(std::string(command) + " --mechanism aderf --x " + x + " --y " + x);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--x has 1025 entries: aderf takes at most 1024 dimensions"))
        << r.err;
  }
}

// Item 15: a terminal escape sequence in a vector file reached the terminal raw in the message.
TEST_F(CliOutputFailures, Item15_ControlCharactersInAFileNeverReachTheTerminal) {
  std::ofstream(path("x.csv")) << "0.1,0.2\n0.3,\x1b[2J\x1b]0;owned\x07\n";
  const CliResult r =
      runCli("run variance-vs-sigma --set regime=csv --set d=2 --set csv-x=" + quoted("x.csv") +
             " --set csv-y=" + quoted("x.csv"));
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x07'), std::string::npos) << r.err;
  EXPECT_TRUE(contains(r.err, "\\x1b[2J")) << r.err;
}

// The elapsed times of the progress lines printed on stderr ("(elapsed 1.8 s)"), in order.
std::vector<double> printedElapsedTimes(const std::string& err) {
  std::vector<double> elapsed;
  for (std::size_t at = err.find("(elapsed "); at != std::string::npos;
       at = err.find("(elapsed ", at + 1)) {
    // "1.8 s", "42 s", or past a minute "1 min 05 s" (core/io/remaining_time.h).
    std::istringstream in(err.substr(at + 9, 24));
    double value = 0, seconds = 0;
    std::string unit;
    in >> value >> unit;
    if (unit == "min" && in >> seconds) value = 60 * value + seconds;
    elapsed.push_back(value);
  }
  return elapsed;
}

// A run long enough to show its progress printed a line at least about once a second.
void expectALineEverySecond(const CliResult& r, double atLeastSeconds) {
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<double> elapsed = printedElapsedTimes(r.err);
  ASSERT_GE(elapsed.size(), 2u) << r.err;
  ASSERT_GE(elapsed.back(), atLeastSeconds) << "too quick to show the heartbeat:\n" << r.err;
  for (std::size_t i = 1; i < elapsed.size(); ++i)  // past a minute the times print whole seconds
    EXPECT_LE(elapsed[i] - elapsed[i - 1], elapsed[i] >= 60 ? 2.5 : 1.5) << r.err;
}

// Items 13 and 14: runs whose first cells take long (run), and mc --path full with ORF at large d,
// were silent for over a minute. Both print progress at least once a second after the first.
TEST_F(CliOutputFailures, Item14_ALongRunShowsItIsAliveEverySecond) {
  expectALineEverySecond(runCli("run mse-ratio-vs-v --set trials=800000 --csv " + quoted("m.csv")),
                         2.5);
  std::string x = "0.01", y = "0.02";
  for (int i = 1; i < 500; ++i) {
    x += ",0.01";
    y += ",0.02";
  }
  expectALineEverySecond(
      runCli("mc --mechanism pos --coupling orf --path full --m 8 --trials 256 --x " + x + " --y " +
             y + " >/dev/null"),
      2.0);
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
