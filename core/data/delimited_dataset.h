#pragma once
// Labelled datasets from delimited text (the UCI files, users' CSV files): one point per record,
// one column holding the class label, the others features. Feature columns hold numbers or
// categories; categories become integer codes (category_coder.h: numeric or lexicographic order)
// or one-hot indicator columns. Every cell of a used column must be present: an empty cell, "?"
// or NaN is an error naming the line and the column, as is a number a double cannot hold finitely.
//
// Header row: Present, Absent, or Auto: taken as a header when a column is chosen by name, or when
// some column holds a non-number in the first record and a number in every later one ("length"
// above 0.455, 0.35, ...). A file of categories only cannot show its header that way: say Present.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/delimited_text.h"
#include "core/data/labelled_dataset.h"

namespace rfscope {

enum class CategoricalEncoding {
  IntegerCodes,  // one feature per column, values 0..k-1 (CRT; the preprocessing)
  OneHot,        // k indicator features "column=value" (the SimRF authors' published script)
};

enum class HeaderRow { Auto, Present, Absent };

// A column chosen by 1-based position, by header name, or the last one.
struct ColumnChoice {
  enum class Kind { Last, Position, Name };
  Kind kind = Kind::Last;
  int position = 0;  // Kind::Position, 1-based
  std::string name;  // Kind::Name

  static ColumnChoice last() { return {}; }
  static ColumnChoice at(int position) { return {Kind::Position, position, {}}; }
  static ColumnChoice named(std::string name) { return {Kind::Name, 0, std::move(name)}; }
  // "last" (any letter case), a positive whole number (position), anything else a name.
  static ColumnChoice parse(std::string_view text);
  std::string describe() const;  // "the last column", "column 3", "column 'rings'"
};

// At most this many feature values in one dataset (1 GiB as doubles, the NPY reader's cap).
inline constexpr std::uint64_t kMaxLabelledFeatureValues = std::uint64_t{1} << 27;

struct DelimitedLayout {
  FieldSeparator separator = FieldSeparator::Comma;
  HeaderRow header = HeaderRow::Auto;
  ColumnChoice label = ColumnChoice::last();
  std::vector<ColumnChoice> ignored = {};  // columns that are neither features nor the label
  // Columns read as categories whatever they hold. The others are numbers; with
  // detectCategorical, a column with any cell that is not a number is a category column instead
  // (users' files), without it such a cell is an error (the UCI files, whose layout is known).
  std::vector<ColumnChoice> categorical = {};
  bool detectCategorical = true;
  std::vector<std::string> columnNames = {};  // every column's name for files without a header row
  CategoricalEncoding encoding = CategoricalEncoding::IntegerCodes;
};

// Parses `text`; `name` (the quoted file name, or the dataset's id) names the dataset and prefixes
// error messages. Throws DataError for malformed text, missing cells, unknown columns, records of
// different lengths, too many values, fewer than two classes or more than kMaxClassCount.
LabelledDataset parseDelimitedDataset(std::string_view text, const DelimitedLayout& layout,
                                      const std::string& name);

}  // namespace rfscope
