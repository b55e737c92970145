#pragma once
// NumPy's .npy files (format versions 1.0, 2.0 and 3.0): the magic string "\x93NUMPY", a version,
// the header's length, a Python dict literal {'descr': '<f8', 'fortran_order': False,
// 'shape': (3, 4), } and the values. Read here: 1-D and 2-D arrays of float32/float64 and of signed
// or unsigned 8/16/32/64-bit integers, little or big endian, C or Fortran order — every value
// converted to double (64-bit integers beyond 2^53 to the nearest double) and handed back in C
// (row-major) order. Everything else (structured or object arrays, other types, 0-D or 3-D
// shapes, non-finite values) is refused with a message that says why.
//
// Usage:
//   const NpyArray a = readNpyFile("vectors.npy");  // throws DataError naming the file
//   for (std::uint64_t r = 0; r < a.rows(); ++r) use(a.at(r, 0));
// or parseNpy(bytes, name) on bytes already in memory.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rfscope {

// At most this many values (1 GiB as doubles), whatever the file's type: a 1 GiB file of bytes
// would otherwise take 8 GiB once converted.
inline constexpr std::uint64_t kMaxNpyValues = std::uint64_t{1} << 27;
// Headers longer than this are refused (NumPy writes well under 1 KiB).
inline constexpr std::uint64_t kMaxNpyHeaderBytes = 65536;

struct NpyArray {
  std::vector<std::uint64_t> shape;  // {n} or {rows, columns}
  std::vector<double> values;        // rows × columns values, row-major
  std::string dtype;                 // the file's type as written, e.g. "<f8", "|u1"
  bool fortranOrder = false;         // the file's order (values are row-major regardless)

  std::uint64_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::uint64_t columns() const { return shape.size() == 2 ? shape[1] : 1; }
  double at(std::uint64_t row, std::uint64_t column) const {
    return values[static_cast<std::size_t>(row * columns() + column)];
  }
};

// Parses a whole .npy file held in `bytes`; `name` (usually the quoted file name) prefixes error
// messages. Never reads outside `bytes`. Throws DataError for anything malformed, truncated,
// followed by extra bytes, unsupported or over kMaxNpyValues.
NpyArray parseNpy(std::string_view bytes, const std::string& name);

// Reads a regular file of at most kMaxNpyFileBytes (input_limits.h) and parses it.
NpyArray readNpyFile(const std::filesystem::path& path);

}  // namespace rfscope
