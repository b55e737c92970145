#pragma once
// The geometry of coupled blocks of frequencies, as plain inline code that the CPU and the CUDA
// samplers share: the simplex directions of SimRF and the structured rotation H D₃ H D₂ H D₁ of the
// fast couplings (SimRF App. B.2 after Choromanski et al. 2017). Arrays are a template parameter:
// double* on the CPU, a strided array on the GPU.

#include <cmath>
#include <cstdint>

#include "core/math/host_device.h"
#include "core/random/trial_stream.h"

namespace rfscope {

// Simplex block (SimRF eq. 9, corrected as in the math notes): row i of S applied to a vector a is
// c₁ aᵢ - c₂ Σ_{j<d} aⱼ for i < d and Σ_{j<d} aⱼ / √(d-1) for i = d (0-based: the last entry).
template <class Array>
RFSCOPE_HOST_DEVICE inline void applySimplexRows(Array a, int d) {
  double head = 0;
  for (int j = 0; j + 1 < d; ++j)
    head += a[j];
  const double dm1 = d - 1.0;
  const double c1 = std::sqrt(d / dm1);
  const double c2 = (std::sqrt(static_cast<double>(d)) + 1.0) / (dm1 * std::sqrt(dm1));
  for (int j = 0; j + 1 < d; ++j)
    a[j] = c1 * a[j] - c2 * head;
  a[d - 1] = head / std::sqrt(dm1);
}

// In-place fast Walsh–Hadamard transform (unnormalised), n a power of two.
template <class Array>
RFSCOPE_HOST_DEVICE inline void hadamardTransform(Array v, int n) {
  for (int half = 1; half < n; half *= 2)
    for (int start = 0; start < n; start += 2 * half)
      for (int i = start; i < start + half; ++i) {
        const double a = v[i], b = v[i + half];
        v[i] = a + b;
        v[i + half] = a - b;
      }
}

// v ← H D₃ H D₂ H D₁ v / n^{3/2}, with signs[k n + i] the i-th entry of D_{k+1}.
template <class Array>
RFSCOPE_HOST_DEVICE inline void structuredRotation(Array v, int n, Array signs) {
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < n; ++i)
      v[i] *= signs[k * n + i];
    hadamardTransform(v, n);
  }
  const double scale = 1.0 / (n * std::sqrt(static_cast<double>(n)));
  for (int i = 0; i < n; ++i)
    v[i] *= scale;
}

// 3n random signs (one bit each).
template <class Array>
RFSCOPE_HOST_DEVICE inline void randomSigns(TrialStream& rng, int count, Array signs) {
  std::uint64_t word = 0;
  for (int i = 0; i < count; ++i) {
    if (i % 64 == 0) word = rng.bits();
    signs[i] = (word >> (i % 64)) & 1 ? 1.0 : -1.0;
  }
}

}  // namespace rfscope
