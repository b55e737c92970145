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
    out += "nan";
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

}  // namespace

std::string tableToCsv(const Table& table, const CsvMetadata& metadata) {
  std::string out;
  for (const auto& [key, value] : metadata) {
    std::string line = value;
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    out += "# " + key + ": " + line + "\n";
  }
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    out += (c ? "," : "") + quoted(table.columns[c].key);
  out += "\n";
  for (std::size_t row = 0; row < table.rowCount(); ++row) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c) out += ',';
      appendNumber(out, table.columns[c].values[row]);
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
