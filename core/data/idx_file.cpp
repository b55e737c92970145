#include "core/data/idx_file.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/data/data_error.h"
#include "core/data/input_file.h"

namespace rfscope {
namespace {

// Refuse headers promising more than this (a corrupt header must not trigger a huge allocation
// before the data runs out, nor a small gzip file decompress into gigabytes).
constexpr std::uint64_t kMaxDataBytes = kMaxIdxFileBytes;

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

// The file's content, inflated when it is gzip (one member or several concatenated; bytes after
// the last member that do not start another one are ignored, as gzip does). The whole stream is
// checked: a stream cut anywhere, its 8-byte trailer included, is "truncated" — zlib's gzread
// missed cuts in the trailer of files larger than its buffers.
std::string fileContent(const std::filesystem::path& path) {
  std::string raw = readInputFile(path, kMaxIdxFileBytes, "IDX file");
  const auto isGzip = [](const unsigned char* at, std::size_t left) {
    return left >= 2 && at[0] == 0x1f && at[1] == 0x8b;
  };
  const auto* in = reinterpret_cast<const unsigned char*>(raw.data());
  if (!isGzip(in, raw.size())) return raw;
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) fail(path, "cannot inflate: out of memory");
  const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
  stream.next_in = const_cast<unsigned char*>(in);
  stream.avail_in = static_cast<uInt>(raw.size());
  // The header and dimensions (at most 4 + 4·255 bytes) and kMaxDataBytes of data, and one more
  // byte to tell that the data goes on.
  constexpr std::uint64_t kMaxContent = 4 + 4 * 255 + kMaxDataBytes + 1;
  std::string content;
  while (true) {
    if (content.size() >= kMaxContent)
      fail(path, "the gzip data inflates to over " + describeByteCount(kMaxDataBytes) +
                     ", the limit for IDX files");
    const std::size_t before = content.size();
    content.resize(
        static_cast<std::size_t>(std::min<std::uint64_t>(before + (1 << 20), kMaxContent)));
    stream.next_out = reinterpret_cast<unsigned char*>(content.data() + before);
    stream.avail_out = static_cast<uInt>(content.size() - before);
    const int status = inflate(&stream, Z_NO_FLUSH);
    content.resize(content.size() - stream.avail_out);
    if (status == Z_STREAM_END) {
      if (!isGzip(stream.next_in, stream.avail_in)) return content;  // done
      inflateReset(&stream);                                         // the next member
    } else if (status == Z_DATA_ERROR) {
      fail(path, std::string("corrupt gzip data: ") + (stream.msg ? stream.msg : "invalid data"));
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      fail(path, "cannot inflate: " + std::string(stream.msg ? stream.msg : "zlib error"));
    } else if (stream.avail_in == 0 && content.size() == before) {
      fail(path, "truncated: the gzip stream ends before its trailer (incomplete download?)");
    }
  }
}

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
  return parseIdx(fileContent(path), path);
}

IdxArray parseIdx(std::string_view content, const std::filesystem::path& path) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(content.data());
  if (content.size() < 4)
    fail(path,
         "truncated: " + std::to_string(content.size()) + " bytes, an IDX header needs at least 4");
  if (data[0] != 0 || data[1] != 0)
    fail(path, "not an IDX file: it starts with " + hexByte(data[0]) + " " + hexByte(data[1]) +
                   "; an IDX file starts with two zero bytes (magic number 0x0000TTNN)");
  if (!knownType(data[2]))
    fail(path, "not an IDX file: unknown type code " + hexByte(data[2]) +
                   " in the magic number (known: 0x08 0x09 0x0b 0x0c 0x0d 0x0e)");
  const auto type = static_cast<IdxType>(data[2]);
  const std::size_t rank = data[3];
  if (rank == 0) fail(path, "the IDX header declares no dimensions");
  if (content.size() < 4 + 4 * rank)
    fail(path, "truncated: the header declares " + std::to_string(rank) +
                   " dimensions but the file ends inside them");
  IdxArray array;
  std::uint64_t count = 1;
  bool tooLarge = false;
  for (std::size_t i = 0; i < rank; ++i) {
    const std::uint8_t* at = data + 4 + 4 * i;
    const std::uint32_t size = (std::uint32_t{at[0]} << 24) | (std::uint32_t{at[1]} << 16) |
                               (std::uint32_t{at[2]} << 8) | at[3];
    array.dimensions.push_back(size);
    if (size != 0 && count > kMaxDataBytes / size)
      tooLarge = true;  // checked before it overflows
    else
      count *= size;
  }
  const std::uint64_t dataBytes = count * elementSize(type);
  if (tooLarge || dataBytes > kMaxDataBytes)
    fail(path, "the IDX header's dimensions " + array.shape() + " describe over " +
                   describeByteCount(kMaxDataBytes) + " of data, the limit for IDX files");
  const std::uint64_t held = content.size() - 4 - 4 * rank;
  if (held < dataBytes)
    fail(path, "truncated: the header's dimensions " + array.shape() + " of " + idxTypeName(type) +
                   " need " + std::to_string(dataBytes) + " data bytes, the file holds " +
                   std::to_string(held));
  if (held > dataBytes)
    fail(path, "size mismatch: " + std::to_string(held - dataBytes) + " bytes follow the " +
                   std::to_string(dataBytes) + " data bytes that the header's dimensions " +
                   array.shape() + " describe");
  const std::uint8_t* first = data + 4 + 4 * rank;
  std::vector<std::uint8_t> bytes(first, first + dataBytes);

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
