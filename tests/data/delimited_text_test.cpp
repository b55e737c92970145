#include "core/data/delimited_text.h"

#include <gtest/gtest.h>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

using Records = std::vector<std::pair<std::size_t, std::vector<std::string>>>;

Records readAll(std::string_view text, FieldSeparator separator) {
  Records records;
  DelimitedRecords reader(text, separator, "t.csv");
  while (reader.next())
    records.emplace_back(reader.lineNumber(),
                         std::vector<std::string>(reader.fields().begin(), reader.fields().end()));
  return records;
}

TEST(DelimitedText, SplitsCommaRecordsTrimmingBlanksAndCarriageReturns) {
  const Records records =
      readAll("a, b ,c\r\n\r\n# comment\n  \n1,,3\r\nx,y,", FieldSeparator::Comma);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], (Records::value_type{1, {"a", "b", "c"}}));
  EXPECT_EQ(records[1], (Records::value_type{5, {"1", "", "3"}}));
  // A separator at the end of the line leaves an empty last field; no final newline needed.
  EXPECT_EQ(records[2], (Records::value_type{6, {"x", "y", ""}}));
}

TEST(DelimitedText, ReadsQuotedFieldsWithSeparatorsAndEscapedQuotes) {
  const Records records = readAll(R"("Iris, setosa" , "say ""hi""",3)"
                                  "\n"
                                  R"("",b)",
                                  FieldSeparator::Comma);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].second, (std::vector<std::string>{"Iris, setosa", "say \"hi\"", "3"}));
  EXPECT_EQ(records[1].second, (std::vector<std::string>{"", "b"}));
}

TEST(DelimitedText, RejectsAnUnterminatedQuoteAndTextAfterAQuote) {
  EXPECT_THROW(readAll("1,\"abc\n2,3\n", FieldSeparator::Comma), DataError);
  try {
    readAll("1,2\n\"a\"b,3\n", FieldSeparator::Comma);
    FAIL();
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(DelimitedText, TabSemicolonAndWhitespaceSeparators) {
  EXPECT_EQ(readAll("-64\t-56\t1\r\n", FieldSeparator::Tab)[0].second,
            (std::vector<std::string>{"-64", "-56", "1"}));
  EXPECT_EQ(readAll("1,5;2;a b\n", FieldSeparator::Semicolon)[0].second,
            (std::vector<std::string>{"1,5", "2", "a b"}));
  EXPECT_EQ(readAll("ADT1_YEAST  0.58  0.61\t MIT \n", FieldSeparator::Whitespace)[0].second,
            (std::vector<std::string>{"ADT1_YEAST", "0.58", "0.61", "MIT"}));
}

TEST(DelimitedText, DetectsTheSeparatorOfTheFirstRecord) {
  EXPECT_EQ(detectSeparator("# a, b\n1\t2\t3\n"), FieldSeparator::Tab);
  EXPECT_EQ(detectSeparator("\n1,2\t3\n"), FieldSeparator::Comma);
  EXPECT_EQ(detectSeparator("1;2;3\n"), FieldSeparator::Semicolon);
  EXPECT_EQ(detectSeparator("  1  2 3\r\n"), FieldSeparator::Whitespace);
}

TEST(DelimitedText, MissingCellsAndNumbers) {
  for (const char* missing :
       {"", "?", "NaN", "nan", "NAN", "NA", "na", "N/A", "n/a", "NULL", "null"})
    EXPECT_TRUE(isMissingCell(missing)) << missing;
  for (const char* present : {"0", "nano", "??", "none", "n.a", "NAND", "nulls"})
    EXPECT_FALSE(isMissingCell(present)) << present;
  double value = 7;
  EXPECT_EQ(parseCellNumber("+2.5e-3", value), CellNumber::Finite);
  EXPECT_DOUBLE_EQ(value, 2.5e-3);
  EXPECT_EQ(parseCellNumber("-64", value), CellNumber::Finite);
  EXPECT_EQ(value, -64);
  EXPECT_EQ(parseCellNumber("1e-400", value), CellNumber::Finite);
  EXPECT_EQ(value, 0);
  value = 7;
  EXPECT_EQ(parseCellNumber("1e400", value), CellNumber::NonFinite);
  EXPECT_EQ(parseCellNumber("-inf", value), CellNumber::NonFinite);
  EXPECT_EQ(parseCellNumber("5more", value), CellNumber::NotANumber);
  EXPECT_EQ(parseCellNumber("1.2.3", value), CellNumber::NotANumber);
  EXPECT_EQ(parseCellNumber("+", value), CellNumber::NotANumber);
  EXPECT_EQ(value, 7);  // unchanged unless finite
}

}  // namespace
}  // namespace rfscope
