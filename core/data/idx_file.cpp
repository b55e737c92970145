#include "core/data/idx_file.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

// Refuse headers promising more than this (a corrupt header must not trigger a huge allocation
// before the data runs out).
constexpr std::uint64_t kMaxDataBytes = std::uint64_t{1} << 34;

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw DataError(quoted(path) + ": " + problem);
}

std::size_t elementSize(IdxType type) {
  switch (type) {
    case IdxType::UnsignedByte:
    case IdxType::SignedByte:
      return 1;
    case IdxType::Short:
      return 2;
    case IdxType::Int:
    case IdxType::Float:
      return 4;
    case IdxType::Double:
      return 8;
  }
  return 0;
}

bool knownType(std::uint8_t code) {
  return code == 0x08 || code == 0x09 || code == 0x0B || code == 0x0C || code == 0x0D ||
         code == 0x0E;
}

std::string hexByte(unsigned value) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[(value >> 4) & 15] + digits[value & 15];
}

// Reads the whole (decompressed) content; zlib reads uncompressed files transparently.
class GzReader {
 public:
  explicit GzReader(const std::filesystem::path& path) : path_(path) {
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (!file_)
      fail(path, std::string("cannot open: ") + (errno ? std::strerror(errno) : "out of memory"));
    gzbuffer(file_, 1 << 17);
  }
  ~GzReader() { gzclose(file_); }
  GzReader(const GzReader&) = delete;
  GzReader& operator=(const GzReader&) = delete;

  // Appends up to `count` bytes to `out`; returns how many were read (fewer at the end).
  std::uint64_t read(std::vector<std::uint8_t>& out, std::uint64_t count) {
    std::uint64_t total = 0;
    while (total < count) {
      const auto chunk = static_cast<unsigned>(std::min<std::uint64_t>(count - total, 1u << 20));
      const std::size_t before = out.size();
      out.resize(before + chunk);
      const int got = gzread(file_, out.data() + before, chunk);
      if (got < 0) checkError();
      out.resize(before + static_cast<std::size_t>(std::max(got, 0)));
      total += static_cast<std::uint64_t>(std::max(got, 0));
      if (static_cast<unsigned>(got) < chunk) {
        checkError();
        break;
      }
    }
    return total;
  }

  // Whether the gzip stream ended before its end marker or trailer (CRC and length).
  bool streamTruncated() const { return streamTruncated_; }

 private:
  void checkError() {
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    if (code == Z_BUF_ERROR) {  // the gzip stream ends early: reported after the data checks
      streamTruncated_ = true;
      return;
    }
    if (code != Z_OK && code != Z_STREAM_END)
      fail(path_, std::string(code == Z_ERRNO ? "read error: " : "corrupt gzip data: ") +
                      (code == Z_ERRNO ? std::strerror(errno) : message));
  }

  std::filesystem::path path_;
  gzFile file_ = nullptr;
  bool streamTruncated_ = false;
};

template <class T>
std::vector<T> decodeBigEndian(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::array<std::uint8_t, sizeof(T)> word;
    for (std::size_t b = 0; b < sizeof(T); ++b)
      word[b] = bytes[i * sizeof(T) + b];
    if constexpr (std::endian::native == std::endian::little)
      std::reverse(word.begin(), word.end());
    std::memcpy(&values[i], word.data(), sizeof(T));
  }
  return values;
}

template <class T>
void appendBigEndian(const std::vector<T>& values, std::vector<std::uint8_t>& out) {
  for (const T& value : values) {
    std::array<std::uint8_t, sizeof(T)> word;
    std::memcpy(word.data(), &value, sizeof(T));
    if constexpr (std::endian::native == std::endian::little)
      std::reverse(word.begin(), word.end());
    out.insert(out.end(), word.begin(), word.end());
  }
}

}  // namespace

std::string idxTypeName(IdxType type) {
  switch (type) {
    case IdxType::UnsignedByte:
      return "unsigned byte";
    case IdxType::SignedByte:
      return "signed byte";
    case IdxType::Short:
      return "16-bit integer";
    case IdxType::Int:
      return "32-bit integer";
    case IdxType::Float:
      return "float";
    case IdxType::Double:
      return "double";
  }
  return "unknown";
}

IdxType IdxArray::type() const {
  static constexpr IdxType kTypes[] = {IdxType::UnsignedByte, IdxType::SignedByte, IdxType::Short,
                                       IdxType::Int,          IdxType::Float,      IdxType::Double};
  return kTypes[values.index()];
}

std::size_t IdxArray::size() const {
  return std::visit([](const auto& v) { return v.size(); }, values);
}

double IdxArray::value(std::size_t index) const {
  return std::visit([index](const auto& v) { return static_cast<double>(v[index]); }, values);
}

std::string IdxArray::shape() const {
  std::string text;
  for (std::size_t i = 0; i < dimensions.size(); ++i)
    text += (i ? "×" : "") + std::to_string(dimensions[i]);
  return text;
}

IdxArray readIdxFile(const std::filesystem::path& path) {
  GzReader reader(path);
  std::vector<std::uint8_t> bytes;
  const std::uint64_t headerBytes = reader.read(bytes, 4);
  if (headerBytes < 4)
    fail(path,
         "truncated: " + std::to_string(headerBytes) + " bytes, an IDX header needs at least 4");
  if (bytes[0] != 0 || bytes[1] != 0)
    fail(path, "not an IDX file: it starts with " + hexByte(bytes[0]) + " " + hexByte(bytes[1]) +
                   "; an IDX file starts with two zero bytes (magic number 0x0000TTNN)");
  if (!knownType(bytes[2]))
    fail(path, "not an IDX file: unknown type code " + hexByte(bytes[2]) +
                   " in the magic number (known: 0x08 0x09 0x0b 0x0c 0x0d 0x0e)");
  const auto type = static_cast<IdxType>(bytes[2]);
  const int rank = bytes[3];
  if (rank == 0) fail(path, "the IDX header declares no dimensions");

  bytes.clear();
  const std::uint64_t dimensionBytes = reader.read(bytes, 4u * static_cast<unsigned>(rank));
  if (dimensionBytes < 4u * static_cast<unsigned>(rank))
    fail(path, "truncated: the header declares " + std::to_string(rank) +
                   " dimensions but the file ends inside them");
  IdxArray array;
  std::uint64_t count = 1;
  bool tooLarge = false;
  for (int i = 0; i < rank; ++i) {
    const std::uint32_t size = (std::uint32_t{bytes[4 * i]} << 24) |
                               (std::uint32_t{bytes[4 * i + 1]} << 16) |
                               (std::uint32_t{bytes[4 * i + 2]} << 8) | bytes[4 * i + 3];
    array.dimensions.push_back(size);
    if (size != 0 && count > kMaxDataBytes / size)
      tooLarge = true;  // checked before it overflows
    else
      count *= size;
  }
  const std::uint64_t dataBytes = count * elementSize(type);
  if (tooLarge || dataBytes > kMaxDataBytes)
    fail(path, "the IDX header's dimensions " + array.shape() + " describe over 16 GiB of data");

  bytes.clear();
  const std::uint64_t got = reader.read(bytes, dataBytes);
  if (got < dataBytes)
    fail(path, "truncated: the header's dimensions " + array.shape() + " of " + idxTypeName(type) +
                   " need " + std::to_string(dataBytes) + " data bytes, the file holds " +
                   std::to_string(got));
  std::vector<std::uint8_t> extra;
  if (const std::uint64_t trailing = reader.read(extra, 1 << 16); trailing > 0)
    fail(path, "size mismatch: " + std::string(trailing == (1 << 16) ? "at least " : "") +
                   std::to_string(trailing) + " bytes follow the " + std::to_string(dataBytes) +
                   " data bytes that the header's dimensions " + array.shape() + " describe");
  if (reader.streamTruncated())
    fail(path, "truncated: the gzip stream ends before its trailer (incomplete download?)");

  switch (type) {
    case IdxType::UnsignedByte:
      array.values = std::move(bytes);
      break;
    case IdxType::SignedByte:
      array.values = decodeBigEndian<std::int8_t>(bytes);
      break;
    case IdxType::Short:
      array.values = decodeBigEndian<std::int16_t>(bytes);
      break;
    case IdxType::Int:
      array.values = decodeBigEndian<std::int32_t>(bytes);
      break;
    case IdxType::Float:
      array.values = decodeBigEndian<float>(bytes);
      break;
    case IdxType::Double:
      array.values = decodeBigEndian<double>(bytes);
      break;
  }
  return array;
}

void writeIdxFile(const std::filesystem::path& path, const IdxArray& array, bool gzipped) {
  std::uint64_t count = 1;
  for (std::uint32_t size : array.dimensions)
    count *= size;
  if (array.dimensions.empty() || array.dimensions.size() > 255 || count != array.size())
    fail(path, "cannot write: dimensions " + array.shape() + " do not match " +
                   std::to_string(array.size()) + " values");
  std::vector<std::uint8_t> bytes{0, 0, static_cast<std::uint8_t>(array.type()),
                                  static_cast<std::uint8_t>(array.dimensions.size())};
  for (std::uint32_t size : array.dimensions)
    for (int shift = 24; shift >= 0; shift -= 8)
      bytes.push_back((size >> shift) & 0xff);
  std::visit([&bytes](const auto& v) { appendBigEndian(v, bytes); }, array.values);

  if (gzipped) {
    gzFile file = gzopen(path.c_str(), "wb9");
    bool ok = file != nullptr;
    for (std::size_t done = 0; ok && done < bytes.size();) {
      const auto chunk = static_cast<unsigned>(std::min<std::size_t>(bytes.size() - done, 1 << 20));
      ok = gzwrite(file, bytes.data() + done, chunk) == static_cast<int>(chunk);
      done += chunk;
    }
    if (file && gzclose(file) != Z_OK) ok = false;
    if (!ok) fail(path, "cannot write");
  } else {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) fail(path, "cannot write");
  }
}

}  // namespace rfscope
