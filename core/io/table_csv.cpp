#include "core/io/table_csv.h"

#include <charconv>
#include <cmath>

namespace rfscope {
namespace {

// Whole numbers below this are written out in digits (the shortest form would write 1000000 as
// 1e+06, which reads badly in a count column); larger ones keep the shortest round-trip form.
constexpr double kLargestPlainInteger = 1e15;

void appendNumber(std::string& out, double value) {
  if (std::isnan(value)) {
    // No value here (another series' grid point, a quantity not defined there): an empty cell,
    // which spreadsheets and pandas read as missing.
  } else if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
  } else {
    char buffer[32];
    const bool whole = std::abs(value) < kLargestPlainInteger && value == std::trunc(value);
    const auto result =
        whole ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value))
              : std::to_chars(buffer, buffer + sizeof buffer, value);  // round-trips
    out.append(buffer, result.ptr);
  }
}

// RFC 4180 quoting where needed.
std::string quoted(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The name of each row's x value where the hints name them (datasets, estimators), else empty.
std::vector<std::string> xNames(const Table& table) {
  const Column* x = table.column(table.hints.xColumn);
  if (!x || table.hints.xValueNames.empty()) return {};
  std::vector<std::string> names;
  for (const double value : x->values) {
    std::string name;
    for (const auto& [named, text] : table.hints.xValueNames)
      if (named == value) name = text;
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::string tableToCsv(const Table& table, const CsvMetadata& metadata) {
  std::string out;
  for (const auto& [key, value] : metadata) {
    std::string line = value;
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    out += "# " + key + ": " + line + "\n";
  }
  // Named x values get a column of their names right after the x column.
  const std::vector<std::string> names = xNames(table);
  const auto namesAfter = [&](std::size_t c) {
    return !names.empty() && table.columns[c].key == table.hints.xColumn;
  };
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    out += (c ? "," : "") + quoted(table.columns[c].key);
    if (namesAfter(c)) out += "," + quoted(table.columns[c].key + "-name");
  }
  out += "\n";
  for (std::size_t row = 0; row < table.rowCount(); ++row) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c) out += ',';
      appendNumber(out, table.columns[c].values[row]);
      if (namesAfter(c)) out += "," + quoted(names[row]);
    }
    out += "\n";
  }
  return out;
}

CsvMetadata runMetadata(const std::string& experimentId, const ParameterSet& params) {
  CsvMetadata metadata{{"experiment", experimentId}, {"rfscope-version", RFSCOPE_VERSION}};
  for (const auto& [key, value] : params.values())
    metadata.emplace_back("param " + key, formatParameterValue(value));
  return metadata;
}

}  // namespace rfscope
