// libFuzzer harness: IDX files, plain or gzipped, through the real file path (an in-memory file
// from memfd_create): open checks, inflate and parse. A DataError is the expected answer to bad
// input; a crash, a leak, any other exception or a hang is a bug.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/data/data_error.h"
#include "core/data/idx_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = ::memfd_create("fuzz.idx", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
  try {
    const rfscope::IdxArray array = rfscope::readIdxFile("/proc/self/fd/" + std::to_string(fd));
    std::uint64_t count = 1;
    for (const std::uint32_t d : array.dimensions)
      count *= d;
    if (count != array.size()) std::abort();  // the shape describes the values read
    if (array.size() > 0) (void)array.value(array.size() - 1);
  } catch (const rfscope::DataError&) {
  }
  ::close(fd);
  return 0;
}
