#include "core/data/delimited_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && isBlank(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isBlank(text.back()))
    text.remove_suffix(1);
  return text;
}

// Blank or a comment: holds no record.
bool holdsNoRecord(std::string_view line) {
  const std::string_view content = trimmed(line);
  return content.empty() || content.front() == '#';
}

// A UTF-8 byte order mark, which spreadsheet programs put before the first field.
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string_view withoutByteOrderMark(std::string_view text) {
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    text.remove_prefix(kByteOrderMark.size());
  return text;
}

char separatorChar(FieldSeparator separator) {
  switch (separator) {
    case FieldSeparator::Comma:
      return ',';
    case FieldSeparator::Tab:
      return '\t';
    case FieldSeparator::Semicolon:
      return ';';
    case FieldSeparator::Whitespace:
      break;
  }
  return ' ';
}

}  // namespace

FieldSeparator detectSeparator(std::string_view text) {
  text = withoutByteOrderMark(text);
  std::size_t position = 0;
  while (position < text.size()) {
    std::size_t end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(position, end - position);
    position = end + 1;
    if (holdsNoRecord(line)) continue;
    if (line.find(',') != std::string_view::npos) return FieldSeparator::Comma;
    if (trimmed(line).find('\t') != std::string_view::npos) return FieldSeparator::Tab;
    if (line.find(';') != std::string_view::npos) return FieldSeparator::Semicolon;
    return FieldSeparator::Whitespace;
  }
  return FieldSeparator::Comma;
}

const char* separatorName(FieldSeparator separator) {
  switch (separator) {
    case FieldSeparator::Comma:
      return "comma";
    case FieldSeparator::Tab:
      return "tab";
    case FieldSeparator::Semicolon:
      return "semicolon";
    case FieldSeparator::Whitespace:
      return "whitespace";
  }
  return "?";
}

DelimitedRecords::DelimitedRecords(std::string_view text, FieldSeparator separator,
                                   std::string name)
    : text_(withoutByteOrderMark(text)), separator_(separator), name_(std::move(name)) {}

bool DelimitedRecords::next() {
  fields_.clear();
  unescaped_.clear();
  while (position_ < text_.size()) {
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    const std::string_view line = text_.substr(position_, end - position_);
    position_ = end + 1;
    ++lineNumber_;
    if (holdsNoRecord(line)) continue;
    if (separator_ == FieldSeparator::Whitespace)
      splitWhitespace(line);
    else
      splitQuoted(line);
    return true;
  }
  return false;
}

void DelimitedRecords::splitWhitespace(std::string_view line) {
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && isBlank(line[i]))
      ++i;
    if (i == line.size()) return;
    const std::size_t start = i;
    while (i < line.size() && !isBlank(line[i]))
      ++i;
    fields_.push_back(line.substr(start, i - start));
  }
}

void DelimitedRecords::splitQuoted(std::string_view line) {
  const char separator = separatorChar(separator_);
  std::size_t i = 0;
  while (true) {
    const std::size_t start = i;
    while (i < line.size() && line[i] != separator && line[i] != '"')
      ++i;
    if (i < line.size() && line[i] == '"' && trimmed(line.substr(start, i - start)).empty()) {
      // A quoted field: up to the closing quote, "" standing for one quote.
      std::string value;
      bool escaped = false;
      std::size_t j = i + 1;
      while (true) {
        const std::size_t quote = line.find('"', j);
        if (quote == std::string_view::npos)
          throw DataError(name_ + ", line " + std::to_string(lineNumber_) +
                          ": a quoted field has no closing quote (fields cannot span lines)");
        value.append(line.substr(j, quote - j));
        if (quote + 1 < line.size() && line[quote + 1] == '"') {
          value.push_back('"');
          escaped = true;
          j = quote + 2;
          continue;
        }
        const std::string_view raw = line.substr(i + 1, quote - i - 1);
        if (escaped) {
          unescaped_.push_back(std::move(value));
          fields_.push_back(unescaped_.back());
        } else {
          fields_.push_back(raw);
        }
        i = quote + 1;
        break;
      }
      while (i < line.size() && line[i] != separator) {
        if (!isBlank(line[i]))
          throw DataError(name_ + ", line " + std::to_string(lineNumber_) +
                          ": text after the closing quote of field " +
                          std::to_string(fields_.size()));
        ++i;
      }
    } else {
      while (i < line.size() && line[i] != separator)
        ++i;
      fields_.push_back(trimmed(line.substr(start, i - start)));
    }
    if (i >= line.size()) return;
    ++i;  // the separator; a separator at the end of the line leaves an empty last field
  }
}

bool isMissingCell(std::string_view cell) {
  if (cell.empty() || cell == "?") return true;
  if (cell.size() > 4) return false;
  std::string lower(cell);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "nan" || lower == "na" || lower == "n/a" || lower == "null";
}

CellNumber parseCellNumber(std::string_view cell, double& value) {
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  if (cell.empty()) return CellNumber::NotANumber;
  double parsed = 0;
  const auto result = std::from_chars(cell.data(), cell.data() + cell.size(), parsed);
  if (result.ptr != cell.data() + cell.size()) return CellNumber::NotANumber;
  if (result.ec == std::errc::result_out_of_range) {
    // Too large for a double (underflow to zero is harmless: from_chars reports it likewise, but
    // such a cell has an exponent far below zero).
    const auto e = cell.find_first_of("eE");
    const bool tiny = e != std::string_view::npos && e + 1 < cell.size() && cell[e + 1] == '-';
    if (!tiny) return CellNumber::NonFinite;
    value = 0;
    return CellNumber::Finite;
  }
  if (result.ec != std::errc()) return CellNumber::NotANumber;
  if (!std::isfinite(parsed)) return CellNumber::NonFinite;
  value = parsed;
  return CellNumber::Finite;
}

std::string quotedCell(std::string_view cell) {
  constexpr std::size_t kMax = 40;
  // Control characters (a terminal's escape sequences among them) as \xNN: a message must never
  // drive the terminal it is printed on.
  std::string out = "'";
  for (const char c : cell.substr(0, kMax)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out + (cell.size() > kMax ? "…'" : "'");
}

}  // namespace rfscope
