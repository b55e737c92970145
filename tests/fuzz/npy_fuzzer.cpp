// libFuzzer harness: NumPy .npy files. DataError is the expected answer to bad input; a crash, a
// read outside the input, a leak, any other exception or a hang is a bug.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/data/data_error.h"
#include "core/data/npy_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const rfscope::NpyArray array = rfscope::parseNpy(bytes, "fuzz.npy");
    if (array.shape.empty() || array.shape.size() > 2) std::abort();
    if (array.rows() * array.columns() != array.values.size()) std::abort();
    for (const double v : array.values)
      if (!std::isfinite(v)) std::abort();
  } catch (const rfscope::DataError&) {
  }
  return 0;
}
