#pragma once
// Counter-based random numbers (Philox 4x32-10, Random123): the numbers of stream `stream` under
// `seed` depend only on (seed, stream, position), never on which thread draws them or in what
// order — so results are identical for any thread count or batch split.
// Header-only and allocation-free; every function also compiles as device code under nvcc.
//
// Layout of the 128-bit counter: words 0-1 the block index within the stream, words 2-3 the
// stream. Monte Carlo trials use streams below 2^48; data regimes use streams from 2^48 up.

#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include "core/math/host_device.h"

namespace rfscope {

inline constexpr double kTwoPi = 6.283185307179586476925286766559;

// The four 32-bit words of block `block` of stream `stream` under `seed`.
RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE philox4x32_ctr_t philoxBlock(std::uint64_t seed,
                                                                      std::uint64_t stream,
                                                                      std::uint64_t block) {
  const philox4x32_ctr_t counter = {
      {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
       static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)}};
  const philox4x32_key_t key = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  return philox4x32_R(10, counter, key);
}

// Two 32-bit words → uniform in the open interval (0, 1) with 52 random bits (never 0 or 1).
RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double uniformFromWords(std::uint32_t high,
                                                                 std::uint32_t low) {
  const std::uint64_t bits = ((static_cast<std::uint64_t>(high) << 32) | low) >> 12;
  return (static_cast<double>(bits) + 0.5) * 0x1.0p-52;
}

// Box–Muller on one block: block k of a stream yields normals 2k (cos branch) and 2k+1 (sin).
RFSCOPE_HOST_DEVICE inline void normalPairFromBlock(const philox4x32_ctr_t& block, double& first,
                                                    double& second) {
  const double radius = std::sqrt(-2.0 * std::log(uniformFromWords(block.v[0], block.v[1])));
  const double angle = kTwoPi * uniformFromWords(block.v[2], block.v[3]);
  first = radius * std::cos(angle);
  second = radius * std::sin(angle);
}

// Normal number `index` of a stream that draws only normals — stateless, for code that wants any
// element without drawing the ones before it (device threads, tests). Equals the index-th value of
// PhiloxStream(seed, stream).normal().
RFSCOPE_HOST_DEVICE inline double normalAt(std::uint64_t seed, std::uint64_t stream,
                                           std::uint64_t index) {
  double first = 0, second = 0;
  normalPairFromBlock(philoxBlock(seed, stream, index / 2), first, second);
  return (index % 2 == 0) ? first : second;
}

class PhiloxStream {
 public:
  RFSCOPE_HOST_DEVICE PhiloxStream(std::uint64_t seed, std::uint64_t stream,
                                   std::uint64_t firstBlock = 0)
      : seed_(seed), stream_(stream), nextBlock_(firstBlock) {}

  // The next 64 random bits. Each block holds two such words.
  RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE std::uint64_t bits() {
    if (cached_ == 0) refill();
    // Selects rather than a computed index: a GPU keeps the block in registers instead of local
    // memory.
    const bool firstWord = cached_ == 4;
    const std::uint64_t high = firstWord ? block_.v[0] : block_.v[2];
    const std::uint64_t low = firstWord ? block_.v[1] : block_.v[3];
    cached_ -= 2;
    return (high << 32) | low;
  }

  // Uniform in the open interval (0, 1), 52 random bits (one 64-bit word).
  RFSCOPE_HOST_DEVICE double uniform() {
    const std::uint64_t word = bits();
    return uniformFromWords(static_cast<std::uint32_t>(word >> 32),
                            static_cast<std::uint32_t>(word));
  }

  // Standard normal by Box–Muller; both values of a pair are used. A stream that draws only
  // normals uses one fresh block per pair (see normalAt).
  RFSCOPE_HOST_DEVICE double normal() {
    if (hasSpareNormal_) {
      hasSpareNormal_ = false;
      return spareNormal_;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = kTwoPi * uniform();
    spareNormal_ = radius * std::sin(angle);
    hasSpareNormal_ = true;
    return radius * std::cos(angle);
  }

  // Index of the next block this stream will read (the position, for tests and diagnostics).
  RFSCOPE_HOST_DEVICE std::uint64_t nextBlock() const { return nextBlock_; }

 private:
  RFSCOPE_HOST_DEVICE void refill() {
    block_ = philoxBlock(seed_, stream_, nextBlock_++);
    cached_ = 4;
  }

  std::uint64_t seed_;
  std::uint64_t stream_;
  std::uint64_t nextBlock_;
  philox4x32_ctr_t block_ = {{0, 0, 0, 0}};
  int cached_ = 0;
  bool hasSpareNormal_ = false;
  double spareNormal_ = 0;
};

}  // namespace rfscope
