// End-to-end regression tests of issue 12 ("nothing lost, nothing hangs"), one per item, on the
// real rfscope-cli. Items 3, 4 and 5 concern the app and are in tests/ui and gui_cli_test.cpp.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/cli/cli_runner.h"

namespace rfscope::test {
namespace {

namespace fs = std::filesystem;

class CliRobustness : public CliScratchTest {
 protected:
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

// Every log_ field of an output holds a number or "-inf", as the README promises.
void expectLogFieldsFinite(const nlohmann::json& j, const std::string& context) {
  for (const auto& [key, value] : j.items()) {
    if (key.rfind("log_", 0) != 0) continue;
    for (const auto& v : value.is_array() ? value : nlohmann::json::array({value}))
      EXPECT_TRUE(v.is_number() || v == "-inf") << context << ": " << key << " = " << v.dump();
  }
}

// Item 1: on a full disk, --svg and --pdf exited 0 and left a truncated file. A file-size limit
// fails the write the same way (EFBIG, "File too large"), for every output format.
TEST_F(CliRobustness, Item1_AFailedWriteKeepsTheOldFileForEveryFormat) {
  for (const char* format : {"svg", "pdf", "png", "csv", "json"}) {
    SCOPED_TRACE(format);
    const std::string name = std::string("out.") + format;
    write(name, "old content");
    // dash counts ulimit -f in 512-byte blocks: 8 blocks = 4 KiB, below every one of these files.
    const CliResult r =
        runCli(kSmallRun + "--" + format + " " + quoted(name), "trap '' XFSZ; ulimit -f 8;");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "cannot write '" + path(name) + "'")) << r.err;
    EXPECT_TRUE(contains(r.err, "File too large")) << r.err;
    EXPECT_EQ(readFile(dir_ / name), "old content");
    EXPECT_EQ(files(), std::vector<std::string>{name});  // no temporary left
    fs::remove(dir_ / name);
  }
}

// Item 2: --csv to a device, FIFO or symbolic link replaced it with a regular file.
TEST_F(CliRobustness, Item2_SpecialFilesAreWrittenThroughNotReplaced) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // With a reader, the table goes through the FIFO.
  CliResult r = runCli(kSmallRun + "--csv " + quoted("fifo"),
                       "cat " + quoted("fifo") + " > " + quoted("received.csv") + " &");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  for (int i = 0; i < 100 && readFile(dir_ / "received.csv").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the background reader
  EXPECT_EQ(readFile(dir_ / "received.csv").rfind("# experiment: variance-vs-sigma", 0), 0u);
  struct stat info {};
  ASSERT_EQ(::lstat(path("fifo").c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  // Without one, an error at once instead of a hang.
  r = runCli(kSmallRun + "--csv " + quoted("fifo"));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "a FIFO or socket that no process reads")) << r.err;
  // A symbolic link stays one; the file it points to gets the table.
  write("target.csv", "old");
  fs::create_symlink("target.csv", dir_ / "link.csv");
  r = runCli(kSmallRun + "--csv " + quoted("link.csv"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(readFile(dir_ / "target.csv").rfind("# experiment", 0), 0u);
  // A link to /dev/null: the link and the device both stay.
  fs::create_symlink("/dev/null", dir_ / "null.csv");
  r = runCli(kSmallRun + "--csv " + quoted("null.csv"));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "null.csv"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

// Item 6: /dev/zero was read until memory ran out, a FIFO without writer blocked forever, a 2 GB
// sparse file was read whole.
TEST_F(CliRobustness, Item6_DataFilesAreCheckedBeforeTheyAreRead) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  { std::ofstream sparse(dir_ / "sparse.csv"); }
  fs::resize_file(dir_ / "sparse.csv", std::uintmax_t{2} << 30);
  const std::vector<std::pair<std::string, std::string>> cases{
      {"--set regime=csv --set d=2 --set csv-x=/dev/zero", "is a character device"},
      {"--set regime=csv --set d=2 --set csv-x=" + quoted("fifo"), "is a FIFO (named pipe)"},
      {"--set regime=csv --set d=2 --set csv-x=" + quoted("sparse.csv"),
       "is 2 GiB; a vector file may be at most 256 MiB"},
      {"--set regime=mnist --set d=16 --set mnist-images=/dev/zero", "is a character device"},
      {"--set regime=mnist --set d=16 --set mnist-images=" + quoted("fifo"), "is a FIFO"},
  };
  for (const auto& [arguments, message] : cases) {
    const CliResult r = runCli("run variance-vs-sigma " + arguments);
    EXPECT_EQ(r.exitCode, 2) << arguments;
    EXPECT_TRUE(contains(r.err, message)) << arguments << " → " << r.err;
  }
}

// Item 7: mc --m 9223372036854775807 ran (for ever); experiments cap M at 1e5.
TEST_F(CliRobustness, Item7_MonteCarloSizesAreCapped) {
  const std::string pair = "mc --mechanism pos --x 0.1,0.2 --y 0.3,0.1 ";
  CliResult r = runCli(pair + "--m 9223372036854775807");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--m: at most 100000 features")) << r.err;
  r = runCli(pair + "--m 100001");
  EXPECT_EQ(r.exitCode, 2);
  r = runCli(pair + "--trials 10000000000");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--trials: 128 to 1000000000")) << r.err;
  r = runCli(pair + "--trials 64");
  EXPECT_EQ(r.exitCode, 2);
  r = runCli(pair + "--m 100000 --trials 128");
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

// Item 8: SIGINT during a large PNG export left "big.png.tmp-<pid>-0". Interrupted at several
// moments of rendering and writing, the run leaves nothing behind.
TEST_F(CliRobustness, Item8_AnInterruptedExportLeavesNoTemporary) {
  for (const int delayMs : {300, 900, 1500}) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const std::string png = path("big.png");
      ::execl(RFSCOPE_CLI_PATH, RFSCOPE_CLI_PATH, "run", "variance-vs-sigma", "--set",
              "sigma-steps=400", "--png", png.c_str(), "--width", "5000", "--height", "5000",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    ::kill(child, SIGINT);
    int status = 0;
    ::waitpid(child, &status, 0);
    SCOPED_TRACE(delayMs);
    EXPECT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) ||
                (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    for (const auto& name : files())
      EXPECT_EQ(name, "big.png");  // the finished file at most
  }
}

// Item 9: NaN/inf leaked into log_ fields (OPRF at |x| = 1e77, most mechanisms from 1e154, pos
// conformity, a 64-trial interval, an exactly-zero Monte Carlo variance).
TEST_F(CliRobustness, Item9_LogFieldsAreFiniteOrMinusInfinity) {
  CliResult r = runCli("analytic --mechanism oprf --x 1e77 --y 1e77");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--x: entry 1, 1e+77, is out of range")) << r.err;
  for (const char* mechanism : {"trig", "pos", "pos-hyp", "gerf", "oprf", "pois", "geom",
                                "pois-plus", "geom-plus", "hybrid-angular", "hybrid-gaussian"}) {
    for (const char* pair : {"--x 1e60,3 --y 1e60,-2", "--x 1e60 --y -1e60", "--x 1e60 --y 0"}) {
      r = runCli(std::string("analytic --mechanism ") + mechanism + " " + pair);
      const std::string context = std::string(mechanism) + " " + pair;
      ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 3) << context << ": " << r.err;
      if (r.exitCode == 0) expectLogFieldsFinite(nlohmann::json::parse(r.out), context);
    }
  }
  r = runCli("mc --mechanism pos --x 0.5,0.2 --y 0.1,0.3 --trials 128");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  expectLogFieldsFinite(j, "mc 128 trials");
  EXPECT_TRUE(j["log_ci95"][1].is_number());
  // PosRF at x = -y is exact: variance 0, and so is its interval.
  r = runCli("mc --mechanism pos --x 0.5,0.2 --y -0.5,-0.2 --trials 1000");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["variance"], 0.0);
  EXPECT_EQ(j["ci95"], nlohmann::json::parse("[0.0, 0.0]"));
  EXPECT_EQ(j["log_ci95"], nlohmann::json::parse(R"(["-inf", "-inf"])"));
  EXPECT_EQ(j["variance_stderr"], 0.0);
  expectLogFieldsFinite(j, "mc x = -y");
}

// Item 10: Boost exceptions ended analytic with exit 1 and a mangled message, and cost mc its
// finished Monte Carlo result.
TEST_F(CliRobustness, Item10_ExtremeClosedFormsAreEvaluatedAndMonteCarloIsKept) {
  CliResult r = runCli("analytic --mechanism gerf --x 1e8 --y 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  expectLogFieldsFinite(j, "gerf");
  // The GERF optimum is at least as good as OPRF (its real-A, s = +1 member).
  const auto oprf = nlohmann::json::parse(runCli("analytic --mechanism oprf --x 1e8 --y 0").out);
  EXPECT_LE(j["log_variance"].get<double>(), oprf["log_variance"].get<double>() * (1 - 1e-15));
  r = runCli("analytic --mechanism trig --coupling orf --m 4 --x 7e4,0,0,0 --y 0,0,0,0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NEAR(nlohmann::json::parse(r.out)["variance"].get<double>(), 0.125, 1e-15);
  // mc: the closed form next to the estimate, or null with the reason — the estimate is kept.
  r = runCli("mc --mechanism gerf --x 1e8 --y 0 --trials 256");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["analytic"]["log_variance"].is_number());
  r = runCli(
      "mc --mechanism trig --coupling simrf-plus --m 4 --x 0.3,0.1 --y 0.1,0.2 --trials 256");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["log_variance"].is_number());
  EXPECT_TRUE(j["analytic"].is_null());
  EXPECT_TRUE(contains(j["analytic_note"].get<std::string>(), "no closed form")) << j.dump();
  EXPECT_FALSE(contains(r.err + r.out, "boost::")) << r.err;
}

// Item 11: csv rows of ±1e150 gave all-NaN rows with exit 0 and a misleading warning.
TEST_F(CliRobustness, Item11_OutOfRangeDataIsRefusedWithTheTrueReason) {
  write("huge.csv", "1e150 2\n-1e150 3\n4 5\n");
  const CliResult r =
      runCli("run variance-vs-sigma --set regime=csv --set d=2 --set csv-x=" + quoted("huge.csv"));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "vector 1, value 1, is 1e+150, out of range")) << r.err;
  EXPECT_TRUE(r.out.empty());
}

// Item 12: overwriting a 0600 file made it 0644.
TEST_F(CliRobustness, Item12_AReplacedFileKeepsItsPermissions) {
  write("private.csv", "old");
  ASSERT_EQ(::chmod(path("private.csv").c_str(), 0600), 0);
  const CliResult r = runCli(kSmallRun + "--csv " + quoted("private.csv"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  struct stat info {};
  ASSERT_EQ(::stat(path("private.csv").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

// Item 13: the smaller ones.
TEST_F(CliRobustness, Item13_SmallerInputAndMessageProblems) {
  // "1,2," was taken as d = 2.
  CliResult r = runCli("analytic --mechanism pos --x 1,2, --y 1,2,3");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--x: empty entry in '1,2,'")) << r.err;
  // --csv "" wrote to stdout with exit 0.
  r = runCli(kSmallRun + "--csv ''");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "--csv: empty file name")) << r.err;
  EXPECT_TRUE(r.out.empty());
  // A 250-character output name failed: its temporary's name was over NAME_MAX.
  const std::string longName = std::string(246, 'n') + ".csv";
  r = runCli(kSmallRun + "--csv " + quoted(longName));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(files(), std::vector<std::string>{longName});
  // A PNG needing a 104,167² pixmap passed validation, then failed as "could not be written".
  const auto start = std::chrono::steady_clock::now();
  r = runCli("run variance-vs-sigma --png " + quoted("p.png") +
             " --width 20000 --height 20000 --dpi 500");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "PNG exports are limited to 100 megapixels")) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));  // before running
  // Messages named a mechanism the user did not choose.
  r = runCli("mc --mechanism oprf --x 1e154 --y 1e154 --trials 128");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_FALSE(contains(r.err, "GERF")) << r.err;
  EXPECT_TRUE(contains(r.err, "--x")) << r.err;
  r = runCli("mc --mechanism geom --x 1,2 --y 0,0 --trials 256");  // p* → 1 was rounded to 1
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "GeomRF needs")) << r.err;
  // --backend cuda without a GPU is an environment problem (exit 1 with the reason), not input.
  r = runCli("mc --mechanism pos --x 0.1,0.2 --y 0.3,0.1 --trials 128 --backend cuda");
  if (r.exitCode != 0) {  // 0 where a CUDA device is present
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "--backend cuda: CUDA backend unavailable: ")) << r.err;
  }
}

}  // namespace
}  // namespace rfscope::test
