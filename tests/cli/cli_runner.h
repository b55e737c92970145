#pragma once
// Runs the real rfscope-cli (through /bin/sh, so tests may prefix shell set-up such as ulimit) and
// collects its stdout, stderr and exit code.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rfscope::test {

struct CliResult {
  int exitCode = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
};

// A quick run of the CLI (a 50-step σ sweep on 5 pairs), to which a test appends its output flags.
inline const std::string kSmallRun = "run variance-vs-sigma --set sigma-steps=50 --set pairs=5 ";

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path scratchDir() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rfscope-cli-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// `shellPrefix` runs first in the same shell (e.g. "ulimit -f 8;").
inline CliResult runCli(const std::string& arguments, const std::string& shellPrefix = "") {
  const std::filesystem::path err = scratchDir() / "stderr.txt";
  const std::string command =
      shellPrefix + " '" + RFSCOPE_CLI_PATH + "' " + arguments + " 2>'" + err.string() + "'";
  CliResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = readFile(err);
  return result;
}

// A fresh folder per test, named after it, with helpers for files in it.
class CliScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratchDir() / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string quoted(const std::string& name) const { return "'" + path(name) + "'"; }
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }

  std::filesystem::path dir_;
};

}  // namespace rfscope::test
