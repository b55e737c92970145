#pragma once
// Keep freed large blocks for reuse. Monte Carlo redraws allocate the same few multi-megabyte
// matrices again and again (feature matrices of long sequences); glibc's defaults hand such blocks
// back to the kernel on every free, and the next allocation pays for fresh zeroed pages (page
// faults: ~20% of the CPU time of attention-error at L = 4096). Called once at the start of the
// programs; a no-op where the C library is not glibc.

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rfscope {

inline void keepLargeAllocations() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);   // blocks up to 64 MiB from the heap, reusable
  mallopt(M_TRIM_THRESHOLD, 256 << 20);  // return free heap memory beyond 256 MiB only
#endif
}

}  // namespace rfscope
