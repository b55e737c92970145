#pragma once
// Functions shared by host and device code are marked RFSCOPE_HOST_DEVICE: `__host__ __device__`
// under nvcc, nothing elsewhere. Such functions allocate nothing and throw nothing.

#if defined(__CUDACC__)
#define RFSCOPE_HOST_DEVICE __host__ __device__
#else
#define RFSCOPE_HOST_DEVICE
#endif
