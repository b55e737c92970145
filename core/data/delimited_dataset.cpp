#include "core/data/delimited_dataset.h"

#include <algorithm>
#include <cctype>

#include "core/data/category_coder.h"
#include "core/data/data_error.h"

namespace rfscope {
namespace {

// The first cell of a column with a given problem: line 0 when there is none.
struct CellAt {
  std::size_t line = 0;
  std::string cell;

  void note(std::size_t atLine, std::string_view text) {
    if (line == 0) line = atLine, cell = std::string(text);
  }
};

// What the first pass learns about one column.
struct ColumnScan {
  CellAt firstMissing, firstNonFinite, firstText;  // in records after the first
  std::size_t laterNumbers = 0;                    // number cells after the first record
  CellAt headMissing, headNonFinite, headText;     // the first record's cell, if so
};

struct Scan {
  std::vector<ColumnScan> columns;
  std::vector<std::string> firstRecord;
  std::size_t firstLine = 0, records = 0;
};

Scan scanColumns(std::string_view text, FieldSeparator separator, const std::string& name) {
  Scan scan;
  DelimitedRecords records(text, separator, name);
  while (records.next()) {
    const auto& fields = records.fields();
    const std::size_t line = records.lineNumber();
    if (scan.records == 0) {
      scan.columns.resize(fields.size());
      scan.firstLine = line;
      scan.firstRecord.assign(fields.begin(), fields.end());
    } else if (fields.size() != scan.columns.size()) {
      throw DataError(
          name + ", line " + std::to_string(line) + ": " + std::to_string(fields.size()) +
          " fields, but the first record (line " + std::to_string(scan.firstLine) + ") has " +
          std::to_string(scan.columns.size()) + "; every record must have the same number of " +
          separatorName(separator) + "-separated fields");
    }
    const bool head = scan.records == 0;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      ColumnScan& column = scan.columns[c];
      double value = 0;
      if (isMissingCell(fields[c])) {
        (head ? column.headMissing : column.firstMissing).note(line, fields[c]);
        continue;
      }
      switch (parseCellNumber(fields[c], value)) {
        case CellNumber::Finite:
          break;
        case CellNumber::NonFinite:
          (head ? column.headNonFinite : column.firstNonFinite).note(line, fields[c]);
          break;
        case CellNumber::NotANumber:
          (head ? column.headText : column.firstText).note(line, fields[c]);
          continue;
      }
      if (!head) ++column.laterNumbers;
    }
    ++scan.records;
  }
  if (scan.records == 0) throw DataError(name + ": holds no records");
  return scan;
}

bool choosesByName(const DelimitedLayout& layout) {
  const auto byName = [](const ColumnChoice& c) { return c.kind == ColumnChoice::Kind::Name; };
  return byName(layout.label) ||
         std::any_of(layout.ignored.begin(), layout.ignored.end(), byName) ||
         std::any_of(layout.categorical.begin(), layout.categorical.end(), byName);
}

bool hasHeader(const Scan& scan, const DelimitedLayout& layout) {
  switch (layout.header) {
    case HeaderRow::Present:
      return true;
    case HeaderRow::Absent:
      return false;
    case HeaderRow::Auto:
      break;
  }
  if (choosesByName(layout)) return true;
  if (scan.records < 2) return false;
  return std::any_of(scan.columns.begin(), scan.columns.end(), [&](const ColumnScan& c) {
    return c.headText.line != 0 && c.laterNumbers == scan.records - 1;
  });
}

class Columns {
 public:
  Columns(std::vector<std::string> names, std::string fileName)
      : names_(std::move(names)), fileName_(std::move(fileName)) {}

  std::size_t count() const { return names_.size(); }
  const std::string& name(std::size_t c) const { return names_[c]; }
  std::string describe(std::size_t c) const {
    return "column " + std::to_string(c + 1) + " (" + quotedCell(names_[c]) + ")";
  }

  std::size_t resolve(const ColumnChoice& choice, const char* role, bool header) const {
    switch (choice.kind) {
      case ColumnChoice::Kind::Last:
        return count() - 1;
      case ColumnChoice::Kind::Position:
        if (choice.position < 1 || static_cast<std::size_t>(choice.position) > count())
          throw DataError(fileName_ + ": the " + role + " column " +
                          std::to_string(choice.position) + " does not exist; the records have " +
                          std::to_string(count()) + " columns (1 to " + std::to_string(count()) +
                          ")");
        return static_cast<std::size_t>(choice.position - 1);
      case ColumnChoice::Kind::Name:
        break;
    }
    if (!header)
      throw DataError(fileName_ + ": the " + role + " column is named " + quotedCell(choice.name) +
                      ", but the file has no header row of column names");
    std::size_t found = count();
    for (std::size_t c = 0; c < count(); ++c) {
      if (names_[c] != choice.name) continue;
      if (found != count())
        throw DataError(fileName_ + ": two columns are named " + quotedCell(choice.name) +
                        " (columns " + std::to_string(found + 1) + " and " + std::to_string(c + 1) +
                        "); choose the " + role + " column by position");
      found = c;
    }
    if (found == count()) {
      std::string list;
      for (std::size_t c = 0; c < count() && c < 20; ++c)
        list += (c ? ", " : "") + quotedCell(names_[c]);
      if (count() > 20) list += ", …";
      throw DataError(fileName_ + ": no column is named " + quotedCell(choice.name) + " (the " +
                      role + " column); the header names " + list);
    }
    return found;
  }

 private:
  std::vector<std::string> names_;
  std::string fileName_;
};

// "name, line 12, column 3 ('width'): "
std::string cellAt(const std::string& name, std::size_t line, const Columns& columns,
                   std::size_t c) {
  return name + ", line " + std::to_string(line) + ", " + columns.describe(c) + ": ";
}

// The first problem cell of a used column among the data records.
void checkCells(const ColumnScan& column, bool headIsData, bool categorical, bool isLabel,
                const Columns& columns, std::size_t c, const std::string& name) {
  const auto first = [headIsData](const CellAt& head, const CellAt& later) -> const CellAt& {
    return headIsData && head.line != 0 ? head : later;
  };
  const CellAt& missing = first(column.headMissing, column.firstMissing);
  if (missing.line != 0)
    throw DataError(cellAt(name, missing.line, columns, c) +
                    (isLabel ? "the label is missing (" : "missing value (") +
                    (missing.cell.empty() ? std::string("empty cell") : quotedCell(missing.cell)) +
                    "); every point needs every feature and a label");
  if (categorical || isLabel) return;
  const CellAt& nonFinite = first(column.headNonFinite, column.firstNonFinite);
  const CellAt& text = first(column.headText, column.firstText);
  if (text.line != 0 && (nonFinite.line == 0 || text.line < nonFinite.line))
    throw DataError(cellAt(name, text.line, columns, c) + quotedCell(text.cell) +
                    " is not a number");
  if (nonFinite.line != 0)
    throw DataError(cellAt(name, nonFinite.line, columns, c) + quotedCell(nonFinite.cell) +
                    " is not a finite number");
}

void checkValueCount(std::uint64_t rows, std::uint64_t columns, const std::string& name) {
  if (columns != 0 && rows > kMaxLabelledFeatureValues / columns)
    throw DataError(name + ": " + std::to_string(rows) + " points × " + std::to_string(columns) +
                    " features is more than the " + std::to_string(kMaxLabelledFeatureValues) +
                    " feature values a dataset may hold");
}

}  // namespace

ColumnChoice ColumnChoice::parse(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "last") return last();
  if (!text.empty() && text.size() <= 9 &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    return at(std::stoi(std::string(text)));
  return named(std::string(text));
}

std::string ColumnChoice::describe() const {
  switch (kind) {
    case Kind::Last:
      return "the last column";
    case Kind::Position:
      return "column " + std::to_string(position);
    case Kind::Name:
      break;
  }
  return "column " + quotedCell(name);
}

LabelledDataset parseDelimitedDataset(std::string_view text, const DelimitedLayout& layout,
                                      const std::string& name) {
  const Scan scan = scanColumns(text, layout.separator, name);
  const bool header = hasHeader(scan, layout);
  const std::size_t rows = scan.records - (header ? 1 : 0);
  if (rows == 0) throw DataError(name + ": holds a header row but no records");
  const std::size_t columnCount = scan.columns.size();

  std::vector<std::string> names(columnCount);
  if (!header && !layout.columnNames.empty() && layout.columnNames.size() != columnCount)
    throw DataError(name + ": records of " + std::to_string(columnCount) + " fields, but " +
                    std::to_string(layout.columnNames.size()) + " are expected");
  for (std::size_t c = 0; c < columnCount; ++c) {
    if (header && !scan.firstRecord[c].empty())
      names[c] = scan.firstRecord[c];
    else if (!header && !layout.columnNames.empty())
      names[c] = layout.columnNames[c];
    else
      names[c] = "column " + std::to_string(c + 1);
  }
  const Columns columns(std::move(names), name);

  enum class Role { Numeric, Categorical, Ignored, Label };
  std::vector<Role> roles(columnCount, Role::Numeric);
  for (const auto& choice : layout.categorical)
    roles[columns.resolve(choice, "categorical", header)] = Role::Categorical;
  for (const auto& choice : layout.ignored)
    roles[columns.resolve(choice, "ignored", header)] = Role::Ignored;
  const std::size_t labelColumn = columns.resolve(layout.label, "label", header);
  if (roles[labelColumn] == Role::Ignored)
    throw DataError(name + ": " + columns.describe(labelColumn) +
                    " is both the label column and an ignored column");
  roles[labelColumn] = Role::Label;

  std::vector<std::size_t> featureColumns;
  for (std::size_t c = 0; c < columnCount; ++c) {
    if (roles[c] == Role::Ignored || roles[c] == Role::Label) continue;
    const ColumnScan& column = scan.columns[c];
    const bool text = (!header && column.headText.line != 0) || column.firstText.line != 0;
    if (roles[c] == Role::Numeric && text && layout.detectCategorical) roles[c] = Role::Categorical;
    checkCells(column, !header, roles[c] == Role::Categorical, false, columns, c, name);
    featureColumns.push_back(c);
  }
  checkCells(scan.columns[labelColumn], !header, true, true, columns, labelColumn, name);
  if (featureColumns.empty())
    throw DataError(name + ": no feature columns; only the label (" +
                    columns.describe(labelColumn) + ") is left");
  checkValueCount(rows, featureColumns.size(), name);

  // Second pass: numbers, and provisional category codes.
  Eigen::MatrixXd values(static_cast<Eigen::Index>(rows),
                         static_cast<Eigen::Index>(featureColumns.size()));
  std::vector<CategoryCoder> coders(featureColumns.size());
  CategoryCoder labelCoder;
  std::vector<int> labels(rows);
  DelimitedRecords records(text, layout.separator, name);
  if (header) records.next();
  for (Eigen::Index r = 0; records.next(); ++r) {
    const auto& fields = records.fields();
    for (std::size_t f = 0; f < featureColumns.size(); ++f) {
      const std::size_t c = featureColumns[f];
      double& value = values(r, static_cast<Eigen::Index>(f));
      if (roles[c] == Role::Categorical)
        value = coders[f].provisionalCode(fields[c]);
      else
        parseCellNumber(fields[c], value);  // checked above
    }
    labels[static_cast<std::size_t>(r)] = labelCoder.provisionalCode(fields[labelColumn]);
  }

  LabelledDataset data;
  data.name = name;
  const CategoryCoder::Order labelOrder = labelCoder.order();
  data.classNames = labelOrder.names;
  for (int& label : labels)
    label = labelOrder.finalCode[static_cast<std::size_t>(label)];
  data.labels = std::move(labels);

  std::vector<CategoryCoder::Order> orders(featureColumns.size());
  std::size_t outputColumns = 0;
  for (std::size_t f = 0; f < featureColumns.size(); ++f) {
    if (roles[featureColumns[f]] == Role::Categorical) orders[f] = coders[f].order();
    const bool expand = roles[featureColumns[f]] == Role::Categorical &&
                        layout.encoding == CategoricalEncoding::OneHot;
    outputColumns += expand ? orders[f].names.size() : 1;
  }
  checkValueCount(rows, outputColumns, name);
  data.features.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(outputColumns));
  Eigen::Index out = 0;
  for (std::size_t f = 0; f < featureColumns.size(); ++f) {
    const auto source = values.col(static_cast<Eigen::Index>(f));
    const std::string& columnName = columns.name(featureColumns[f]);
    if (roles[featureColumns[f]] != Role::Categorical) {
      data.features.col(out++) = source;
      data.featureNames.push_back(columnName);
      continue;
    }
    const auto& order = orders[f];
    const auto code = [&](Eigen::Index r) {
      return order.finalCode[static_cast<std::size_t>(source(r))];
    };
    if (layout.encoding == CategoricalEncoding::IntegerCodes) {
      for (Eigen::Index r = 0; r < source.size(); ++r)
        data.features(r, out) = code(r);
      ++out;
      data.featureNames.push_back(columnName);
      continue;
    }
    const auto categories = static_cast<Eigen::Index>(order.names.size());
    data.features.middleCols(out, categories).setZero();
    for (Eigen::Index r = 0; r < source.size(); ++r)
      data.features(r, out + code(r)) = 1.0;
    for (const auto& category : order.names)
      data.featureNames.push_back(columnName + "=" + category);
    out += categories;
  }
  checkLabelledDataset(data);
  return data;
}

}  // namespace rfscope
