#pragma once
// Functions shared by host and device code are marked RFSCOPE_HOST_DEVICE: `__host__ __device__`
// under nvcc, nothing elsewhere. Such functions allocate nothing and throw nothing.
// RFSCOPE_FORCE_INLINE marks the few tiny hot functions (one Philox block, the normal transform)
// that the compiler would otherwise call out of line in every inner loop.

#if defined(__CUDACC__)
#define RFSCOPE_HOST_DEVICE __host__ __device__
#define RFSCOPE_FORCE_INLINE __forceinline__
#else
#define RFSCOPE_HOST_DEVICE
#define RFSCOPE_FORCE_INLINE inline __attribute__((always_inline))
#endif
