#include "core/io/table_csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace rfscope {
namespace {

TEST(TableCsv, CommentsHeaderAndRoundTrippingNumbers) {
  Table table;
  table.columns = {{"sigma", "σ", {0.1, 1.0 / 3.0}},
                   {"trig-mean", "m", {-1e-300, std::numeric_limits<double>::quiet_NaN()}},
                   {"odd,key", "k", {std::numeric_limits<double>::infinity(), -2.5}}};
  const std::string csv =
      tableToCsv(table, {{"experiment", "variance-vs-sigma"}, {"note", "a\nb"}});
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# experiment: variance-vs-sigma");
  std::getline(in, line);
  EXPECT_EQ(line, "# note: a b");  // newlines cannot break the comment block
  std::getline(in, line);
  EXPECT_EQ(line, "sigma,trig-mean,\"odd,key\"");
  std::getline(in, line);
  EXPECT_EQ(line, "0.1,-1e-300,inf");
  std::getline(in, line);
  const auto comma = line.find(',');
  EXPECT_EQ(std::stod(line.substr(0, comma)), 1.0 / 3.0);  // shortest round-trip text
  EXPECT_EQ(line.substr(comma), ",,-2.5");                 // no value (NaN): an empty cell
  EXPECT_FALSE(std::getline(in, line));
}

TEST(TableCsv, WholeNumbersAreWrittenInDigits) {
  Table table;
  table.columns = {{"trials", "n", {1e6, 2.5e7, 64, -3, 0, -0.0}},
                   {"value", "v", {1e15, 1e20, 0.5, 1e-7, 123456789012.0, 2}}};
  const std::string csv = tableToCsv(table, {});
  EXPECT_EQ(csv,
            "trials,value\n"
            "1000000,1e+15\n"  // a count in digits; huge values keep their short form
            "25000000,1e+20\n"
            "64,0.5\n"
            "-3,1e-07\n"
            "0,123456789012\n"
            "0,2\n");
}

}  // namespace
}  // namespace rfscope
