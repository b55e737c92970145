// An output format defined in this file alone — a writer and one registration — is offered by
// `rfscope-cli run` as --toy FILE and written through the command's own parsing and writing (the
// code rfscope-cli and the Python module run), beside the built-in formats.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/run_arguments.h"
#include "core/io/output_format.h"

namespace rfscope {
namespace {

// One line per column: its key and how many values it holds.
class ToyTableWriter final : public TableWriter {
 public:
  std::string write(const TableDocument& document) const override {
    std::string out = "toy " + document.experimentId + "\n";
    for (const Column& column : document.table.columns)
      out += column.key + " " + std::to_string(column.values.size()) + "\n";
    return out;
  }
};

const ToyTableWriter toyWriter;
const OutputFormat toyFormat{
    "toy", "toy", "Toy table", "column keys and lengths", OutputKind::Table, &toyWriter};
// Registered before main(), as a plug-in would be: before anything reads the registry.
const bool registered = (registerOutputFormat(toyFormat), true);

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ToyOutputFormat, IsInTheRegistry) {
  ASSERT_TRUE(registered);
  EXPECT_EQ(findOutputFormat("toy"), &toyFormat);
  EXPECT_EQ(findTableWriter("toy"), &toyWriter);
  EXPECT_EQ(outputFormatForPath("out/t.TOY", OutputKind::Table), &toyFormat);
  EXPECT_EQ(outputFormatForPath("t.toy", OutputKind::Figure), nullptr);
  EXPECT_EQ(outputFormats(OutputKind::Table).back(), &toyFormat);
}

TEST(ToyOutputFormat, IsWrittenByTheRunCommandByName) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("rfscope-toy-format-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string toy = (dir / "t.toy").string(), csv = (dir / "t.csv").string();
  const cli::RunInvocation run =
      cli::parseRunInvocation({"variance-vs-sigma", "--set", "pairs=2", "--set", "sigma-steps=3",
                               "--toy", toy, "--csv", csv});
  ASSERT_EQ(run.tables.size(), 2u);
  EXPECT_EQ(run.tables[0].format->id, "csv");  // in the registry's order
  EXPECT_EQ(run.tables[1].format, &toyFormat);

  SilentRunContext context;
  const RunResult result = run.experiment->run(run.parameters, context);
  cli::writeTables(run.tables,
                   {run.experimentId, run.parameters, result.table, result.warnings, 1.0});
  const std::string text = readFile(toy);
  EXPECT_EQ(text.rfind("toy variance-vs-sigma\nsigma 3\n", 0), 0u) << text;
  EXPECT_EQ(readFile(csv).rfind("# experiment: variance-vs-sigma", 0), 0u);

  // Two formats naming one file are refused, the toy's option named as any other.
  try {
    cli::parseRunInvocation({"variance-vs-sigma", "--toy", toy, "--csv", toy});
    ADD_FAILURE() << "no error";
  } catch (const cli::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--csv and --toy name the same file"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rfscope
