#include "core/data/labelled_csv.h"

#include <gtest/gtest.h>

#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

LabelledDataset parse(const std::string& text, LabelledCsvOptions options = {}) {
  return parseLabelledCsv(text, options, "'d.csv'");
}

// The DataError message of parsing `text`, "" if it parses.
std::string problem(const std::string& text, LabelledCsvOptions options = {}) {
  try {
    parse(text, options);
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(LabelledCsv, LastColumnLabelsNumbersAndAHeaderFoundByItself) {
  const LabelledDataset data = parse(
      "length,colour,width,species\n"
      "1.5,red,2,setosa\n"
      "2.5,blue,3,virginica\n"
      "3.5,red,4,setosa\n");
  ASSERT_EQ(data.size(), 3);
  ASSERT_EQ(data.dimension(), 3);
  EXPECT_EQ(data.featureNames, (std::vector<std::string>{"length", "colour", "width"}));
  EXPECT_EQ(data.classNames, (std::vector<std::string>{"setosa", "virginica"}));
  EXPECT_EQ(data.labels, (std::vector<int>{0, 1, 0}));
  Eigen::MatrixXd expected(3, 3);
  expected << 1.5, 1, 2,  // colour: blue 0, red 1
      2.5, 0, 3,          //
      3.5, 1, 4;
  EXPECT_EQ(data.features, expected);
  EXPECT_EQ(data.name, "'d.csv'");
  EXPECT_FALSE(data.target);
}

TEST(LabelledCsv, LabelColumnByPositionOrNameAndIgnoredColumns) {
  const std::string text =
      "id;class;x;y\n"
      "a17;1;0.5;-1\n"
      "b22;2;0.25;-2\n"
      "c03;1;0.125;-3\n";
  LabelledCsvOptions byPosition;
  byPosition.label = ColumnChoice::parse("2");
  byPosition.ignored = {ColumnChoice::parse("id")};
  const LabelledDataset a = parse(text, byPosition);
  EXPECT_EQ(a.featureNames, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(a.classNames, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(a.labels, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(a.features(2, 1), -3);

  LabelledCsvOptions byName;
  byName.label = ColumnChoice::parse("class");
  byName.ignored = {ColumnChoice::parse("1")};
  const LabelledDataset b = parse(text, byName);
  EXPECT_EQ(b.features, a.features);
  EXPECT_EQ(b.labels, a.labels);
}

TEST(LabelledCsv, CategoriesOnlyFileHasNoHeaderUnlessSaid) {
  // Like car.data: no column is numeric below its first cell, so the first row is data.
  const std::string text = "vhigh,2,unacc\nlow,5more,acc\nmed,2,unacc\n";
  const LabelledDataset data = parse(text);
  EXPECT_EQ(data.size(), 3);
  EXPECT_EQ(data.featureNames, (std::vector<std::string>{"column 1", "column 2"}));
  EXPECT_EQ(data.classNames, (std::vector<std::string>{"acc", "unacc"}));
  EXPECT_EQ(data.features.col(1), Eigen::Vector3d(0, 1, 0));  // "2" < "5more" in byte order
  LabelledCsvOptions header;
  header.header = HeaderRow::Present;
  EXPECT_EQ(parse(text, header).size(), 2);
  EXPECT_EQ(parse(text, header).featureNames, (std::vector<std::string>{"vhigh", "2"}));
}

TEST(LabelledCsv, ByteOrderMarkOfSpreadsheetExportsIsSkipped) {
  // Otherwise "\xEF\xBB\xBF1.5" would be text and the first record taken for a header.
  const LabelledDataset data = parse(
      "\xEF\xBB\xBF"
      "1.5,2,a\n2.5,3,b\n");
  EXPECT_EQ(data.size(), 2);
  EXPECT_EQ(data.features(0, 0), 1.5);
  EXPECT_EQ(parse("\xEF\xBB\xBF"
                  "x\ty\tkind\n1\t2\ta\n3\t4\tb\n")
                .featureNames,
            (std::vector<std::string>{"x", "y"}));
}

TEST(LabelledCsv, NumbersOnlyFileWithoutHeader) {
  const LabelledDataset data = parse("1 2 0\n3 4 1\n\n5 6 1\n");
  EXPECT_EQ(data.size(), 3);
  EXPECT_EQ(data.features(2, 0), 5);
  EXPECT_EQ(data.classSizes(), (std::vector<Eigen::Index>{1, 2}));
}

TEST(LabelledCsv, OneHotEncodingExpandsCategoryColumns) {
  LabelledCsvOptions options;
  options.encoding = CategoricalEncoding::OneHot;
  const LabelledDataset data = parse("size,colour,kind\n1,red,a\n2,blue,b\n3,green,a\n", options);
  EXPECT_EQ(data.featureNames,
            (std::vector<std::string>{"size", "colour=blue", "colour=green", "colour=red"}));
  Eigen::MatrixXd expected(3, 4);
  expected << 1, 0, 0, 1,  //
      2, 1, 0, 0,          //
      3, 0, 1, 0;
  EXPECT_EQ(data.features, expected);
}

TEST(LabelledCsv, MissingCellsNameTheLineAndColumn) {
  const std::string header = "a,b,label\n";
  std::string message = problem(header + "1,2,x\n3,,y\n");
  EXPECT_TRUE(contains(message, "'d.csv', line 3, column 2 ('b'): missing value (empty cell)"))
      << message;
  for (const char* cell : {"NaN", "nan", "?"}) {
    message = problem(header + "1,2,x\n3,4,y\n" + cell + ",5,x\n");
    EXPECT_TRUE(contains(message, "line 4, column 1 ('a')")) << message;
  }
  message = problem(header + "1,2,x\n3,4,\n");
  EXPECT_TRUE(contains(message, "line 3, column 3 ('label'): the label is missing")) << message;
  message = problem(header + "1,2,x\n3,1e999,y\n");
  EXPECT_TRUE(contains(message, "line 3, column 2 ('b'): '1e999' is not a finite number"))
      << message;
  // A missing cell in an ignored column is no problem.
  LabelledCsvOptions options;
  options.ignored = {ColumnChoice::named("a")};
  EXPECT_EQ(problem(header + "1,2,x\n,4,y\n", options), "");
}

TEST(LabelledCsv, OneClassOnlyIsAnError) {
  const std::string message = problem("x,y\n1,a\n2,a\n3,a\n");
  EXPECT_TRUE(contains(message, "same label ('a')")) << message;
  EXPECT_TRUE(contains(message, "at least two classes")) << message;
}

TEST(LabelledCsv, UnknownOrMissingLabelColumn) {
  LabelledCsvOptions options;
  options.label = ColumnChoice::parse("species");
  std::string message = problem("a,b,kind\n1,2,x\n3,4,y\n", options);
  EXPECT_TRUE(contains(message, "no column is named 'species'")) << message;
  EXPECT_TRUE(contains(message, "'a', 'b', 'kind'")) << message;
  options.label = ColumnChoice::parse("4");
  message = problem("1,2,0\n3,4,1\n", options);
  EXPECT_TRUE(contains(message, "label column 4 does not exist")) << message;
  EXPECT_TRUE(contains(message, "3 columns")) << message;
  options.label = ColumnChoice::parse("kind");
  options.header = HeaderRow::Absent;
  message = problem("a,b,kind\n1,2,x\n", options);
  EXPECT_TRUE(contains(message, "no header row")) << message;
}

TEST(LabelledCsv, OtherMalformedFiles) {
  std::string message = problem("1,2,0\n3,4\n");
  EXPECT_TRUE(contains(message, "line 2: 2 fields, but the first record (line 1) has 3"))
      << message;
  EXPECT_TRUE(contains(problem(""), "holds no records"));
  EXPECT_TRUE(contains(problem("# only a comment\n"), "holds no records"));
  EXPECT_TRUE(contains(problem("x,label\n", {.header = HeaderRow::Present}), "no records"));
  EXPECT_TRUE(contains(problem("0\n1\n"), "no feature columns"));
  LabelledCsvOptions options;
  options.ignored = {ColumnChoice::last()};
  EXPECT_TRUE(contains(problem("1,0\n2,1\n", options), "both the label column and an ignored"));
  message = problem("id,id,label\n1,2,a\n3,4,b\n", {.label = ColumnChoice::named("id")});
  EXPECT_TRUE(contains(message, "two columns are named 'id'")) << message;
}

TEST(LabelledCsv, TooManyDistinctLabelsLooksLikeAContinuousTarget) {
  std::string text;
  for (int i = 0; i <= kMaxClassCount; ++i)
    text += std::to_string(i) + "," + std::to_string(i * 0.5) + "\n";
  const std::string message = problem(text);
  EXPECT_TRUE(contains(message, std::to_string(kMaxClassCount + 1) + " distinct labels"))
      << message;
}

TEST(LabelledCsv, ReadsFilesAndRefusesFoldersAndMissingFiles) {
  const ScratchFolder folder;
  const auto file = folder.write("iris.csv", "x,y,kind\n1,2,a\n3,4,b\n");
  DatasetCache::instance().clear();
  const LabelledDataset data = readLabelledCsv(file);
  EXPECT_EQ(data.size(), 2);
  EXPECT_EQ(data.name, "'" + file.string() + "'");
  try {
    readLabelledCsv(folder.path());
    FAIL();
  } catch (const DataError& e) {
    EXPECT_TRUE(contains(e.what(), "is a folder")) << e.what();
  }
  EXPECT_THROW(readLabelledCsv(folder.path() / "absent.csv"), DataError);
  // Other options, another dataset (the cache keys on them).
  LabelledCsvOptions options;
  options.label = ColumnChoice::at(1);
  EXPECT_EQ(readLabelledCsv(file, options).classNames, (std::vector<std::string>{"1", "3"}));
}

TEST(LabelledCsv, ColumnChoiceParsing) {
  EXPECT_EQ(ColumnChoice::parse("LAST").kind, ColumnChoice::Kind::Last);
  EXPECT_EQ(ColumnChoice::parse("12").kind, ColumnChoice::Kind::Position);
  EXPECT_EQ(ColumnChoice::parse("12").position, 12);
  EXPECT_EQ(ColumnChoice::parse("rings").kind, ColumnChoice::Kind::Name);
  EXPECT_EQ(ColumnChoice::parse("-1").kind, ColumnChoice::Kind::Name);
  EXPECT_EQ(ColumnChoice::parse("rings").describe(), "column 'rings'");
}

}  // namespace
}  // namespace rfscope
