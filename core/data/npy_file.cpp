#include "core/data/npy_file.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

#include "core/data/data_error.h"
#include "core/data/input_file.h"

namespace rfscope {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// A value type of the file: kind 'f', 'i' or 'u', size in bytes, byte order.
struct ValueType {
  char kind = 0;
  std::size_t size = 0;
  bool bigEndian = false;
};

[[noreturn]] void failWith(const std::string& name, const std::string& problem) {
  throw DataError(name + ": " + problem);
}

std::string shown(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out;
  for (const char c : text.substr(0, kMax))
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return "'" + out + (text.size() > kMax ? "…'" : "'");
}

// The header: a Python dict literal, read strictly (the three keys NumPy writes, nothing else).
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  void parse(std::string& descr, bool& fortranOrder, std::vector<std::uint64_t>& shape) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipBlanks();
    expect('{');
    while (true) {
      skipBlanks();
      if (peek() == '}') break;
      const std::string key = quoted();
      skipBlanks();
      expect(':');
      skipBlanks();
      auto once = [&](bool& seen) {
        if (seen) fail("the key '" + key + "' appears twice");
        seen = true;
      };
      if (key == "descr") {
        once(haveDescr);
        if (peek() == '[')
          fail(
              "it holds a structured array (a list of fields); only plain numeric arrays are read");
        descr = quoted();
      } else if (key == "fortran_order") {
        once(haveOrder);
        fortranOrder = boolean();
      } else if (key == "shape") {
        once(haveShape);
        shape = tuple();
      } else {
        fail("unexpected key '" + key + "' (NumPy writes 'descr', 'fortran_order' and 'shape')");
      }
      skipBlanks();
      if (peek() == ',') {
        ++at_;
        continue;
      }
      if (peek() != '}') fail("expected ',' or '}' after the value of '" + key + "'");
    }
    ++at_;  // '}'
    skipBlanks();
    if (at_ != text_.size()) fail("unexpected text after the header's dict");
    if (!haveDescr || !haveOrder || !haveShape)
      fail(std::string("the header lacks the key '") +
           (!haveDescr   ? "descr"
            : !haveOrder ? "fortran_order"
                         : "shape") +
           "'");
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw DataError(name_ + ": malformed NPY header: " + problem);
  }
  char peek() const {
    if (at_ >= text_.size()) fail("it ends early");
    return text_[at_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "' at " + shown(text_.substr(at_)));
    ++at_;
  }
  void skipBlanks() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  std::string quoted() {
    const char quote = peek();
    if (quote != '\'' && quote != '"')
      fail("expected a quoted string at " + shown(text_.substr(at_)));
    const std::size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) fail("a string is not closed");
    std::string value(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return value;
  }
  bool boolean() {
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const std::string_view w(word);
      if (text_.substr(at_, w.size()) == w) {
        at_ += w.size();
        return value;
      }
    }
    fail("'fortran_order' must be True or False");
  }
  std::vector<std::uint64_t> tuple() {
    std::vector<std::uint64_t> values;
    expect('(');
    while (true) {
      skipBlanks();
      if (peek() == ')') break;
      if (values.size() == 32) fail("the shape has more than 32 dimensions");
      std::uint64_t value = 0;
      const std::size_t start = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
        const auto digit = static_cast<std::uint64_t>(text_[at_] - '0');
        if (value > (UINT64_MAX - digit) / 10) fail("a dimension of the shape is too large");
        value = value * 10 + digit;
        ++at_;
      }
      if (at_ == start) fail("the shape must be a tuple of non-negative integers");
      if (at_ < text_.size() && text_[at_] == 'L') ++at_;  // Python 2's long integers
      values.push_back(value);
      skipBlanks();
      if (peek() == ',') {
        ++at_;
        continue;
      }
      if (peek() != ')') fail("expected ',' or ')' in the shape");
    }
    ++at_;
    return values;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t at_ = 0;
};

std::optional<ValueType> valueTypeOf(const std::string& descr) {
  if (descr.size() < 3) return std::nullopt;
  const char order = descr[0];
  ValueType type;
  type.kind = descr[1];
  const std::string size = descr.substr(2);
  if (size == "1" || size == "2" || size == "4" || size == "8")
    type.size = static_cast<std::size_t>(size[0] - '0');
  else
    return std::nullopt;
  if (type.kind == 'f' && type.size < 4) return std::nullopt;  // half precision
  if (type.kind != 'f' && type.kind != 'i' && type.kind != 'u') return std::nullopt;
  if (order == '>')
    type.bigEndian = true;
  else if (order == '=')
    type.bigEndian = std::endian::native == std::endian::big;
  else if (order != '<' && !(order == '|' && type.size == 1))  // '|': no byte order (1 byte)
    return std::nullopt;
  return type;
}

template <class T>
double decode(const unsigned char* bytes, bool bigEndian) {
  unsigned char word[sizeof(T)];
  std::memcpy(word, bytes, sizeof(T));
  if (bigEndian != (std::endian::native == std::endian::big)) std::reverse(word, word + sizeof(T));
  T value;
  std::memcpy(&value, word, sizeof(T));
  return static_cast<double>(value);
}

double decodeValue(const unsigned char* bytes, const ValueType& type) {
  switch (type.kind) {
    case 'f':
      return type.size == 4 ? decode<float>(bytes, type.bigEndian)
                            : decode<double>(bytes, type.bigEndian);
    case 'i':
      switch (type.size) {
        case 1:
          return decode<std::int8_t>(bytes, false);
        case 2:
          return decode<std::int16_t>(bytes, type.bigEndian);
        case 4:
          return decode<std::int32_t>(bytes, type.bigEndian);
        default:
          return decode<std::int64_t>(bytes, type.bigEndian);
      }
    default:
      switch (type.size) {
        case 1:
          return decode<std::uint8_t>(bytes, false);
        case 2:
          return decode<std::uint16_t>(bytes, type.bigEndian);
        case 4:
          return decode<std::uint32_t>(bytes, type.bigEndian);
        default:
          return decode<std::uint64_t>(bytes, type.bigEndian);
      }
  }
}

std::string shapeText(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::uint32_t littleEndianWord(std::string_view bytes, std::size_t at, std::size_t size) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < size; ++i)
    value |= std::uint32_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  return value;
}

}  // namespace

NpyArray parseNpy(std::string_view bytes, const std::string& name) {
  if (bytes.substr(0, kMagic.size()) != kMagic.substr(0, bytes.size()))
    failWith(name, "not an NPY file: it does not start with \\x93NUMPY");
  if (bytes.size() < 10)
    failWith(name,
             "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than an NPY preamble");
  const int major = static_cast<unsigned char>(bytes[6]),
            minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    failWith(name, "unsupported NPY format version " + std::to_string(major) + "." +
                       std::to_string(minor) + " (1.0, 2.0 and 3.0 are read)");
  const std::size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes)
    failWith(name, "truncated: the file ends inside the NPY preamble");
  const std::uint64_t headerLength = littleEndianWord(bytes, 8, lengthBytes);
  if (headerLength > kMaxNpyHeaderBytes)
    failWith(name, "the NPY header claims " + std::to_string(headerLength) + " bytes, over the " +
                       std::to_string(kMaxNpyHeaderBytes) + "-byte limit");
  const std::uint64_t dataStart = 8 + lengthBytes + headerLength;
  if (dataStart > bytes.size())
    failWith(name, "truncated: the header claims " + std::to_string(headerLength) +
                       " bytes, the file ends after " +
                       std::to_string(bytes.size() - 8 - lengthBytes));

  NpyArray array;
  HeaderParser(bytes.substr(8 + lengthBytes, headerLength), name)
      .parse(array.dtype, array.fortranOrder, array.shape);
  if (array.dtype == "|O" || array.dtype == "O")
    failWith(
        name,
        "it holds Python objects (dtype 'O'), which are never read (they would need unpickling)");
  const auto type = valueTypeOf(array.dtype);
  if (!type)
    failWith(name,
             "unsupported dtype " + shown(array.dtype) +
                 " (read: float32/float64 and 8- to 64-bit integers, e.g. '<f8', '>i4', '|u1')");
  if (array.shape.size() != 1 && array.shape.size() != 2)
    failWith(name, "its shape " + shapeText(array.shape) + " has " +
                       std::to_string(array.shape.size()) +
                       " dimensions; a 1-D or 2-D array is needed");

  std::uint64_t count = 1;
  for (const std::uint64_t size : array.shape) {
    if (size != 0 && count > kMaxNpyValues / size)
      failWith(name, "its shape " + shapeText(array.shape) + " holds over " +
                         std::to_string(kMaxNpyValues) + " values, the limit");
    count *= size;
  }
  if (count > kMaxNpyValues)
    failWith(name, "its shape " + shapeText(array.shape) + " holds over " +
                       std::to_string(kMaxNpyValues) + " values, the limit");
  const std::uint64_t dataBytes = count * type->size;
  const std::uint64_t available = bytes.size() - dataStart;
  if (available < dataBytes)
    failWith(name, "truncated: the shape " + shapeText(array.shape) + " of " + array.dtype +
                       " needs " + std::to_string(dataBytes) + " data bytes, the file holds " +
                       std::to_string(available));
  if (available > dataBytes)
    failWith(name, "size mismatch: " + std::to_string(available - dataBytes) +
                       " bytes follow the " + std::to_string(dataBytes) +
                       " data bytes of the shape " + shapeText(array.shape));

  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data() + dataStart);
  const std::uint64_t rows = array.rows(), columns = array.columns();
  array.values.resize(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    const double value = decodeValue(data + i * type->size, *type);
    // File position i is (row, column) in C order, (i mod rows, i / rows) in Fortran order.
    const std::uint64_t row = array.fortranOrder ? i % rows : i / columns;
    const std::uint64_t column = array.fortranOrder ? i / rows : i % columns;
    if (!std::isfinite(value))
      failWith(name, "value " + std::to_string(row) +
                         (array.shape.size() == 2 ? ", " + std::to_string(column) : std::string()) +
                         " is " + (std::isnan(value) ? "NaN" : "infinite") +
                         "; every value must be finite");
    array.values[static_cast<std::size_t>(row * columns + column)] = value;
  }
  return array;
}

NpyArray readNpyFile(const std::filesystem::path& path) {
  return parseNpy(readInputFile(path, kMaxNpyFileBytes, "NPY file"), "'" + path.string() + "'");
}

}  // namespace rfscope
