#pragma once
// e^x in float as one fixed sequence of IEEE float operations (see reproducibleExp): Cody–Waite
// reduction x = k ln 2 + r with cephes' split of ln 2 (k·kLn2Hi is exact: 9 significant bits),
// cephes' degree-7 polynomial for e^r, and 2^k as two exact powers of two. Within 1 ulp of e^x;
// 0 below -103.98, +inf above 88.73.

#include <cstdint>
#include <cstring>

namespace rfscope {

namespace reproducible_exp_float {
inline constexpr float kLowest = -105.0f;
inline constexpr float kHighest = 89.0f;
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kRoundMagic = 0x1.8p23f;
inline constexpr float kLn2Hi = 0.693359375f;
inline constexpr float kLn2Lo = -2.12194440e-4f;
inline constexpr float kP0 = 5.0000001201e-1f, kP1 = 1.6666665459e-1f, kP2 = 4.1665795894e-2f,
                       kP3 = 8.3334519073e-3f, kP4 = 1.3981999507e-3f, kP5 = 1.9875691500e-4f;

inline std::int32_t bitsOf(float x) {
  std::int32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
inline float fromBits(std::int32_t bits) {
  float x = 0;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}
}  // namespace reproducible_exp_float

inline float reproducibleExp(float x) {
  using namespace reproducible_exp_float;
  x = x < kLowest ? kLowest : x;
  x = x > kHighest ? kHighest : x;
  const float shifted = x * kLog2e + kRoundMagic;
  const float k = shifted - kRoundMagic;
  const float r = (x - k * kLn2Hi) - k * kLn2Lo;
  const float r2 = r * r;
  const float p = kP0 + r * (kP1 + r * (kP2 + r * (kP3 + r * (kP4 + r * kP5))));
  const float y = 1.0f + (r + r2 * p);
  const std::int32_t exponent = bitsOf(shifted) - bitsOf(kRoundMagic);
  const std::int32_t half = exponent >> 1;
  return y * fromBits((half + 127) << 23) * fromBits((exponent - half + 127) << 23);
}

}  // namespace rfscope
