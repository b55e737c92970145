#pragma once
// Counter-based random numbers (Philox 4x32-10, Random123): the numbers of stream `stream` under
// `seed` depend only on (seed, stream, position), never on which thread draws them or in what
// order — so results are identical for any thread count or batch split.
// Header-only and allocation-free so that device code can reuse it.

#include <cmath>
#include <cstdint>
#include <numbers>

#include <Random123/philox.h>

namespace rfscope {

class PhiloxStream {
 public:
  using Engine = r123::Philox4x32;

  PhiloxStream(std::uint64_t seed, std::uint64_t stream, std::uint64_t firstBlock = 0) {
    key_[0] = static_cast<std::uint32_t>(seed);
    key_[1] = static_cast<std::uint32_t>(seed >> 32);
    counter_[0] = static_cast<std::uint32_t>(firstBlock);
    counter_[1] = static_cast<std::uint32_t>(firstBlock >> 32);
    counter_[2] = static_cast<std::uint32_t>(stream);
    counter_[3] = static_cast<std::uint32_t>(stream >> 32);
  }

  // Uniform in the open interval (0, 1), 52 random bits.
  double uniform() {
    if (cached_ == 0) refill();
    const std::uint64_t high = block_[4 - cached_];
    const std::uint64_t low = block_[5 - cached_];
    cached_ -= 2;
    const std::uint64_t bits = ((high << 32) | low) >> 12;             // 52 bits
    return (static_cast<double>(bits) + 0.5) * 0x1.0p-52;               // never 0 or 1
  }

  // Standard normal by Box–Muller; both values of a pair are used.
  double normal() {
    if (hasSpareNormal_) {
      hasSpareNormal_ = false;
      return spareNormal_;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = 2.0 * std::numbers::pi * uniform();
    spareNormal_ = radius * std::sin(angle);
    hasSpareNormal_ = true;
    return radius * std::cos(angle);
  }

 private:
  void refill() {
    Engine::ctr_type counter = {{counter_[0], counter_[1], counter_[2], counter_[3]}};
    Engine::key_type key = {{key_[0], key_[1]}};
    const Engine::ctr_type out = Engine()(counter, key);
    for (int i = 0; i < 4; ++i) block_[i] = out.v[i];
    cached_ = 4;
    if (++counter_[0] == 0) ++counter_[1];  // next block
  }

  std::uint32_t key_[2];
  std::uint32_t counter_[4];
  std::uint32_t block_[4] = {0, 0, 0, 0};
  int cached_ = 0;
  bool hasSpareNormal_ = false;
  double spareNormal_ = 0;
};

}  // namespace rfscope
