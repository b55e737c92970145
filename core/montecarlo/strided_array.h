#pragma once
// A per-thread array inside a buffer shared by many threads, element i of thread t at
// base[i · stride + t]: the layout under which a GPU warp's threads, all touching their element
// i at once, read one contiguous run of memory. Behaves like double* for the per-trial code.

#include <cstdint>

#include "core/math/host_device.h"

namespace rfscope {

struct StridedArray {
  double* base = nullptr;
  std::int64_t stride = 1;

  RFSCOPE_HOST_DEVICE double& operator[](std::int64_t i) const { return base[i * stride]; }
  RFSCOPE_HOST_DEVICE StridedArray operator+(std::int64_t elements) const {
    return {base + elements * stride, stride};
  }
};

}  // namespace rfscope
