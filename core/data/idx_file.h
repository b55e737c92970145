#pragma once
// The IDX format of the MNIST database: two zero bytes, a type code, the number of dimensions, each
// dimension as a big-endian 32-bit integer, then the values big-endian in row-major order. Files
// may be gzipped (read through zlib, which also reads plain files as is).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rfscope {

enum class IdxType : std::uint8_t {
  UnsignedByte = 0x08,
  SignedByte = 0x09,
  Short = 0x0B,
  Int = 0x0C,
  Float = 0x0D,
  Double = 0x0E,
};

std::string idxTypeName(IdxType type);  // "unsigned byte", ...

struct IdxArray {
  // Alternatives in the order of the type codes above; values in host byte order.
  using Storage =
      std::variant<std::vector<std::uint8_t>, std::vector<std::int8_t>, std::vector<std::int16_t>,
                   std::vector<std::int32_t>, std::vector<float>, std::vector<double>>;

  std::vector<std::uint32_t> dimensions;
  Storage values;

  IdxType type() const;
  std::size_t size() const;  // number of values
  double value(std::size_t index) const;
  std::string shape() const;  // "10000×28×28"
};

// Reads an IDX file, gzipped or not: a regular file of at most kMaxIdxFileBytes whose data (once
// inflated) is at most that too (input_limits.h). Throws DataError naming the file for anything
// that is not a well-formed IDX file: unreadable, bad magic number, unknown type, no dimensions,
// fewer or more data bytes than the dimensions say, corrupt or truncated gzip data.
IdxArray readIdxFile(const std::filesystem::path& path);

// The same for the (inflated) content of a file already in memory; `path` names it in messages.
// Never reads outside `content`.
IdxArray parseIdx(std::string_view content, const std::filesystem::path& path);

// Writes an IDX file, gzipped when `gzipped`. Throws DataError when the file cannot be written.
void writeIdxFile(const std::filesystem::path& path, const IdxArray& array, bool gzipped);

}  // namespace rfscope
