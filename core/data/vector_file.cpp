#include "core/data/vector_file.h"

#include <charconv>
#include <cmath>
#include <vector>

#include "core/data/data_error.h"
#include "core/data/delimited_text.h"
#include "core/data/input_file.h"

namespace rfscope {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The fields of one line (comment removed), split at commas and runs of blanks. A comma with
// nothing before it (",1", "1,,2", "1,") yields an empty field, which the caller reports.
std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n && isBlank(line[i]))
    ++i;
  if (i == n) return fields;
  while (true) {
    const std::size_t start = i;
    while (i < n && line[i] != ',' && !isBlank(line[i]))
      ++i;
    fields.push_back(line.substr(start, i - start));
    while (i < n && isBlank(line[i]))
      ++i;
    if (i == n) break;
    if (line[i] == ',') {
      ++i;
      while (i < n && isBlank(line[i]))
        ++i;
      if (i == n) {
        fields.push_back({});  // trailing comma
        break;
      }
    }
  }
  return fields;
}

bool parseNumber(std::string_view field, double& value) {
  // from_chars takes no '+'; one is allowed before a digit or '.', not before another sign ("+-1").
  if (field.size() > 1 && field.front() == '+' && field[1] != '-' && field[1] != '+')
    field.remove_prefix(1);
  const auto result = std::from_chars(field.data(), field.data() + field.size(), value);
  return result.ec == std::errc() && result.ptr == field.data() + field.size();
}

}  // namespace

Eigen::MatrixXd parseVectors(std::string_view text, const std::string& name) {
  std::vector<double> values;
  std::size_t dimension = 0, rows = 0, firstRowLine = 0, lineNumber = 0;
  bool headerAllowed = true;
  auto fail = [&](const std::string& problem) {
    throw DataError(name + ", line " + std::to_string(lineNumber) + ": " + problem);
  };
  std::size_t position = 0;
  while (position <= text.size()) {
    std::size_t end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++lineNumber;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto fields = splitFields(line);
    if (fields.empty()) continue;

    std::vector<double> row(fields.size());
    std::size_t numbers = 0;
    for (std::size_t f = 0; f < fields.size(); ++f)
      numbers += parseNumber(fields[f], row[f]);
    if (numbers == 0 && headerAllowed) {  // a header such as "x1,x2,x3"
      headerAllowed = false;
      continue;
    }
    headerAllowed = false;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const std::string column = "value " + std::to_string(f + 1);
      if (fields[f].empty()) fail(column + " is empty");
      if (!parseNumber(fields[f], row[f]))
        fail(column + ", " + quotedCell(fields[f]) + ", is not a number");
      if (!std::isfinite(row[f])) fail(column + ", " + quotedCell(fields[f]) + ", is not finite");
    }
    if (rows == 0) {
      dimension = fields.size();
      firstRowLine = lineNumber;
    } else if (fields.size() != dimension) {
      fail("the row has " + std::to_string(fields.size()) + " values, but the first row (line " +
           std::to_string(firstRowLine) + ") has " + std::to_string(dimension) +
           "; every row must have the same length");
    }
    values.insert(values.end(), row.begin(), row.end());
    ++rows;
  }
  if (rows == 0) throw DataError(name + ": holds no vectors (one vector per row expected)");
  // Row-major rows of the file are the columns of a column-major d × n matrix.
  return Eigen::Map<const Eigen::MatrixXd>(values.data(), static_cast<Eigen::Index>(dimension),
                                           static_cast<Eigen::Index>(rows));
}

Eigen::MatrixXd readVectorFile(const std::filesystem::path& path) {
  return parseVectors(readInputFile(path, kMaxVectorFileBytes, "vector file"),
                      "'" + path.string() + "'");
}

}  // namespace rfscope
