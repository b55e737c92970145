// libFuzzer harness: text files of vectors (the csv regime). DataError is the expected answer to
// bad input; a crash, a leak, any other exception or a hang is a bug.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/data/data_error.h"
#include "core/data/vector_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Eigen::MatrixXd vectors = rfscope::parseVectors(text, "fuzz.csv");
    if (vectors.rows() < 1 || vectors.cols() < 1 || !vectors.allFinite()) std::abort();
  } catch (const rfscope::DataError&) {
  }
  return 0;
}
