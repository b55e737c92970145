#pragma once
// Records of delimited text files (UCI data files, users' labelled CSV files), read one at a time
// without copying the file: one record per line, '\n' or "\r\n" line ends, blank lines and lines
// whose first non-blank character is '#' skipped, blanks around fields trimmed. With a comma, tab
// or semicolon separator a field may be quoted ("a, b"; "" inside quotes is one quote); with the
// whitespace separator, fields are separated by runs of blanks (spaces, tabs). A UTF-8 byte order
// mark at the start (spreadsheet exports) is skipped.

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace rfscope {

enum class FieldSeparator { Comma, Tab, Semicolon, Whitespace };

// The separator of a text whose first record holds a comma, else a tab, else a semicolon, else
// whitespace (looked for in that order, in the first line that is not blank or a comment).
FieldSeparator detectSeparator(std::string_view text);

const char* separatorName(FieldSeparator separator);  // "comma", "tab", ...

class DelimitedRecords {
 public:
  // `name` (usually the quoted file name) prefixes error messages. `text` must outlive this.
  DelimitedRecords(std::string_view text, FieldSeparator separator, std::string name);

  // Moves to the next record; false at the end. Throws DataError for an unterminated quote.
  bool next();
  // 1-based line of the current record in the text.
  std::size_t lineNumber() const { return lineNumber_; }
  // Fields of the current record, valid until the next call of next().
  const std::vector<std::string_view>& fields() const { return fields_; }
  const std::string& name() const { return name_; }

 private:
  void splitQuoted(std::string_view line);
  void splitWhitespace(std::string_view line);

  std::string_view text_;
  FieldSeparator separator_;
  std::string name_;
  std::size_t position_ = 0;
  std::size_t lineNumber_ = 0;
  std::vector<std::string_view> fields_;
  std::deque<std::string> unescaped_;  // quoted fields with "" inside, owned until next()
};

// A cell that stands for a missing value: empty, "?" (the UCI repository's mark), or NaN, NA, N/A
// and NULL (R's, pandas' and SQL's marks) in any letter case. Such a cell is refused wherever it
// stands: read as text, it would silently turn a numeric column into categories.
bool isMissingCell(std::string_view cell);

// What a cell holds read as a number: a finite number (leading '+' allowed; stored in `value`), a
// number a double cannot hold as finite ("inf", "1e400"), or text.
enum class CellNumber { Finite, NonFinite, NotANumber };
CellNumber parseCellNumber(std::string_view cell, double& value);

// The cell quoted for an error message, cut after 40 characters, control characters as \xNN.
std::string quotedCell(std::string_view cell);

}  // namespace rfscope
