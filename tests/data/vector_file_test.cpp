#include "core/data/vector_file.h"

#include <gtest/gtest.h>

#include "core/data/data_error.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

std::string parseError(const std::string& text) {
  try {
    parseVectors(text, "v.csv");
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

TEST(VectorFile, ReadsCommaAndWhitespaceSeparatedRowsAsColumns) {
  const Eigen::MatrixXd v = parseVectors("1,2,3\n4 5 6\n 7 ,\t8 ,9 \n", "v.csv");
  ASSERT_EQ(v.rows(), 3);
  ASSERT_EQ(v.cols(), 3);
  EXPECT_EQ(v.col(0), Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(v.col(1), Eigen::Vector3d(4, 5, 6));
  EXPECT_EQ(v.col(2), Eigen::Vector3d(7, 8, 9));
}

TEST(VectorFile, SkipsCommentsBlankLinesCarriageReturnsAndAHeader) {
  const std::string text =
      "# exported vectors\r\n"
      "x1, x2\r\n"
      "\r\n"
      "-1.5e-3, +2  # first\r\n"
      "   # nothing here\n"
      "0.25\t-4E2\n"
      "3,4";  // no final newline
  const Eigen::MatrixXd v = parseVectors(text, "v.csv");
  ASSERT_EQ(v.rows(), 2);
  ASSERT_EQ(v.cols(), 3);
  EXPECT_EQ(v(0, 0), -1.5e-3);
  EXPECT_EQ(v(1, 0), 2.0);
  EXPECT_EQ(v(1, 1), -400.0);
  EXPECT_EQ(v(1, 2), 4.0);
}

TEST(VectorFile, ParsesNumbersExactly) {
  const Eigen::MatrixXd v = parseVectors("0.1 1e-300 -0 123456789012345678\n", "v.csv");
  EXPECT_EQ(v(0, 0), 0.1);
  EXPECT_EQ(v(1, 0), 1e-300);
  EXPECT_EQ(v(3, 0), 123456789012345678.0);
}

TEST(VectorFile, RaggedRowsNameBothLines) {
  const std::string message = parseError("# c\n1,2,3\n4,5,6\n7,8\n");
  EXPECT_NE(message.find("v.csv, line 4"), std::string::npos) << message;
  EXPECT_NE(message.find("has 2 values, but the first row (line 2) has 3"), std::string::npos)
      << message;
}

TEST(VectorFile, NonNumbersNameLineAndValue) {
  const std::string message = parseError("1,2\n3,abc\n");
  EXPECT_NE(message.find("line 2: value 2, 'abc', is not a number"), std::string::npos) << message;
  EXPECT_NE(parseError("1,2\n3;4\n").find("line 2"), std::string::npos);
  EXPECT_NE(parseError("1,2\n0x10,4\n").find("'0x10', is not a number"), std::string::npos);
  // A non-numeric first row is a header; a second one is an error.
  EXPECT_NE(parseError("a,b\nc,d\n1,2\n").find("line 2: value 1, 'c'"), std::string::npos);
}

TEST(VectorFile, EmptyValuesAndNonFiniteNumbersAreErrors) {
  EXPECT_NE(parseError("1,,2\n").find("line 1: value 2 is empty"), std::string::npos);
  EXPECT_NE(parseError("1,2,\n").find("line 1: value 3 is empty"), std::string::npos);
  EXPECT_NE(parseError(",1,2\n").find("value 1 is empty"), std::string::npos);
  EXPECT_NE(parseError("1,2\ninf,2\n").find("line 2: value 1, 'inf', is not finite"),
            std::string::npos);
  EXPECT_NE(parseError("1,nan\n").find("is not finite"), std::string::npos);
  EXPECT_NE(parseError("1,1e400\n").find("'1e400', is not a number"), std::string::npos);
}

TEST(VectorFile, NoRowsIsAnError) {
  EXPECT_NE(parseError("").find("holds no vectors"), std::string::npos);
  EXPECT_NE(parseError("# only\n\n   \n").find("holds no vectors"), std::string::npos);
  EXPECT_NE(parseError("x,y\n").find("holds no vectors"), std::string::npos);
}

TEST(VectorFile, ReadsFilesAndNamesThemInErrors) {
  const ScratchFolder folder;
  const auto good = folder.write("good.csv", "1 2\n3 4\n");
  EXPECT_EQ(readVectorFile(good).cols(), 2);
  const auto bad = folder.write("bad.csv", "1 2\n3\n");
  try {
    readVectorFile(bad);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + bad.string() + "', line 2"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(readVectorFile(folder.path() / "missing.csv"), DataError);
  EXPECT_THROW(readVectorFile(folder.path()), DataError);
}

// Issue 12, item 13: "+-1" was read as -1 (the '+' stripped, then from_chars took "-1").
TEST(VectorFile, OneSignAtMost) {
  EXPECT_NE(parseError("+-1 2\n").find("value 1, '+-1', is not a number"), std::string::npos)
      << parseError("+-1 2\n");
  EXPECT_NE(parseError("1 ++2\n").find("value 2, '++2', is not a number"), std::string::npos);
  EXPECT_NE(parseError("1 +\n").find("value 2, '+', is not a number"), std::string::npos);
  const Eigen::MatrixXd v = parseVectors("+1 -2 +.5 +1e3\n", "v.csv");
  EXPECT_EQ(v(0, 0), 1.0);
  EXPECT_EQ(v(1, 0), -2.0);
  EXPECT_EQ(v(2, 0), 0.5);
  EXPECT_EQ(v(3, 0), 1000.0);
}

}  // namespace
}  // namespace rfscope
