#pragma once
// Σ_l log I₀(z_l) for z_l ≥ 0 (GeomRF, CRT eq. 13), to double precision, with one logarithm per sum
// instead of one per term (the logarithms dominated the cost of the sum):
//   z ≤ 4:  I₀(z) - 1 = Σ_{k≥1} (z²/4)^k / (k!)², Taylor to k = 17 (fewer for smaller z: 13 up to
//           z = 3, 12 up to 2, 9 up to 1, 7 up to 0.5; all terms positive, truncation below 5e-18
//           relative). The small terms are multiplied as Π(1 + e_l) - 1, so sums of tiny terms
//           keep their relative accuracy (log1p at the end).
//   z > 4:  I₀(z) = e^z f(1/z) / √z with f(u) = √z e^{-z} I₀(z) ∈ (0.398, 0.41], a polynomial in u
//           on each of (4, 8], (8, 16], (16, 32], (32, ∞): Chebyshev interpolants of f computed
//           with mpmath at 50 digits (tests/reference/generate_log_bessel_i0_coefficients.py),
//           relative error ≤ 1.2e-16 in double. Σz, Πf and Πz are kept apart and renormalised.
// Arrays of terms go two at a time through the Taylor polynomial (GCC/Clang vector extension:
// -O2 does not vectorise the loop by itself, and this sum is most of GeomRF's cost).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <utility>

namespace rfscope {

class LogBesselI0Sum {
 public:
  void add(double z) {
    if (z <= 4)
      addSmall(z);
    else
      addLarge(z);
  }

  // The same as add() for each of z[0], …, z[count - 1] (up to rounding).
  void add(const double* z, std::size_t count) {
    for (std::size_t first = 0; first < count; first += kBlock) {
      const std::size_t size = std::min(kBlock, count - first);
      const double* block = z + first;
      double largest = 0;
      for (std::size_t i = 0; i < size; ++i)
        largest = std::max(largest, block[i]);
      alignas(16) double small[kBlock];
      std::size_t smallCount = size;
      if (!(largest <= 4)) {  // move the large terms out, without branches
        alignas(16) double large[kBlock];
        std::size_t largeCount = 0;
        smallCount = 0;
        for (std::size_t i = 0; i < size; ++i) {
          const bool isSmall = block[i] <= 4;
          small[smallCount] = block[i];
          large[largeCount] = block[i];
          smallCount += isSmall;
          largeCount += !isSmall;
        }
        for (std::size_t i = 0; i < largeCount; ++i)
          addLarge(large[i]);
        largest = 0;
        for (std::size_t i = 0; i < smallCount; ++i)
          largest = std::max(largest, small[i]);
        block = small;
      }
      if (smallCount % 2 != 0) addSmall(block[--smallCount]);
      // As many Taylor terms as the largest z needs (truncation below 5e-18 relative).
      if (largest <= 0.5)
        addSmallPairs<7>(block, smallCount);
      else if (largest <= 1)
        addSmallPairs<9>(block, smallCount);
      else if (largest <= 2)
        addSmallPairs<12>(block, smallCount);
      else if (largest <= 3)
        addSmallPairs<13>(block, smallCount);
      else
        addSmallPairs<17>(block, smallCount);
    }
  }

  double value() const {
    const double excess = excess_[0] + excess_[1] + excess_[0] * excess_[1];
    return logs_ + std::log1p(excess) + exponents_ + std::log(scaled_) - 0.5 * std::log(arguments_);
  }

 private:
  using Pair = double __attribute__((vector_size(16)));

  static constexpr std::size_t kBlock = 64;
  static constexpr double kLargestProduct = 1e8;  // 32 factors of Πz stay below 1e256
  static constexpr int kRenormaliseEvery = 32;
  // Excesses are flushed into logs_ beyond this; value() multiplies two of them.
  static constexpr double kLargestExcess = 1e100;
  // 1/(k!)², k = 1, …, 17: e = t(1/(1!)² + t/(2!)² + … + t^16/(17!)²), t = z²/4.
  static constexpr double kTaylor[] = {1.0,
                                       0.25,
                                       0.027777777777777776,
                                       0.001736111111111111,
                                       6.944444444444444e-05,
                                       1.9290123456790124e-06,
                                       3.936759889140842e-08,
                                       6.151187326782565e-10,
                                       7.594058428126624e-12,
                                       7.594058428126623e-14,
                                       6.276081345559193e-16,
                                       4.358389823304995e-18,
                                       2.5789288895295828e-20,
                                       1.3157800456783586e-22,
                                       5.8479113141260385e-25,
                                       2.2843403570804838e-27,
                                       7.904291893012054e-30};

  void addSmall(double z) {
    const double t = 0.25 * z * z;
    const double e = t * (z <= 2 ? hornerFirst<12>(kTaylor, t) : horner(kTaylor, t));
    // Two running products, alternately: each update waits only for the previous one of its own.
    double& excess = excess_[odd_];
    odd_ ^= 1;
    excess += e + excess * e;
    if (excess > kLargestExcess) flush(excess);
  }

  // z[0..count), count even, every z small enough for Terms Taylor terms.
  template <std::size_t Terms>
  void addSmallPairs(const double* z, std::size_t count) {
    // Four running products (two pairs of lanes), so that consecutive updates do not wait.
    auto update = [](Pair running, const double* pair) {
      const Pair zz = {pair[0], pair[1]};
      const Pair t = 0.25 * zz * zz;
      const Pair e = t * hornerFirst<Terms>(kTaylor, t);
      return running * (1 + e) + e;
    };
    Pair first = {0, 0}, second = {0, 0};
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
      first = update(first, z + i);
      second = update(second, z + i + 2);
    }
    if (i < count) first = update(first, z + i);
    for (const Pair& running : {first, second})
      for (int lane = 0; lane < 2; ++lane) {
        double& into = excess_[odd_];
        odd_ ^= 1;
        into += running[lane] + into * running[lane];
        if (into > kLargestExcess) flush(into);
      }
  }

  void flush(double& excess) {
    logs_ += std::log1p(excess);
    excess = 0;
  }

  void addLarge(double z) {
    if (!(z <= kLargestProduct)) {  // huge or non-finite z
      logs_ += z - 0.5 * std::log(z) + std::log(scaledBessel(1 / z));
      return;
    }
    exponents_ += z;
    scaled_ *= scaledBessel(1 / z);
    arguments_ *= z;
    if (++pending_ == kRenormaliseEvery) {
      int exponent = 0;
      arguments_ = std::frexp(arguments_, &exponent);
      logs_ -= 0.5 * exponent * std::numbers::ln2;
      scaled_ = std::frexp(scaled_, &exponent);
      logs_ += exponent * std::numbers::ln2;
      pending_ = 0;
    }
  }

  // f(u) = √z e^{-z} I₀(z) at u = 1/z < 1/4; each piece in w ∈ [-1, 1] over its interval of u.
  static double scaledBessel(double u) {
    static constexpr double kFrom4To8[] = {
        0.4095726275046849,      0.004129118562214073,   0.00027577365229918547,
        3.2230172704895525e-05,  -3.425167338119538e-06, -2.8023607078794162e-06,
        1.5309639970585048e-07,  2.1454108279475936e-07, -4.263152449078149e-08,
        -1.0197299135794527e-08, 6.296414184935269e-09,  -8.606939187790161e-10,
        -3.1612907760496157e-10, 1.9937933203376506e-10, -3.9157095306884466e-11,
        -9.990384578901177e-12,  5.634419580357324e-12};
    static constexpr double kFrom8To16[] = {
        0.4038923361468227,      0.0017529912275184858,  3.891150885367761e-05,
        1.899382571717517e-06,   1.751654133819233e-07,  2.6439051750225822e-08,
        3.5093955113755525e-09,  -5.560821303019839e-10, -4.640612281528446e-10,
        -4.34232832048719e-11,   3.646145225599437e-11,  5.4716617440380314e-12,
        -3.3440985350408383e-12, -3.153001318717834e-13, 2.5958979735025443e-13};
    static constexpr double kFrom16To32[] = {
        0.4013447163692835,     0.0008236114676618609, 8.023331245871643e-06,
        1.534638296074581e-07,  4.604106569082522e-09, 1.9653610703383883e-10,
        1.1367851477076908e-11, 8.715762263094908e-13, 8.929360785139208e-14,
        1.354269328847202e-14,  2.332134787343813e-15};
    static constexpr double kFrom32[] = {
        0.39972842705885897,    0.0007932262375921883,  7.199585950482914e-06,
        1.2304685622065855e-07, 3.144765583902383e-09,  1.0817459438660525e-10,
        4.716691275786964e-12,  2.5080946532617996e-13, 1.5837971667184754e-14,
        1.1914806240674633e-15, 1.0117621027368259e-16};
    if (u >= 0.125) return horner(kFrom4To8, (u - 0.1875) * 16);
    if (u >= 0.0625) return horner(kFrom8To16, (u - 0.09375) * 32);
    if (u >= 0.03125) return horner(kFrom16To32, (u - 0.046875) * 64);
    return horner(kFrom32, u * 64 - 1);
  }

  // Horner's scheme over the first N coefficients, unrolled at compile time (as a loop it cost as
  // much as the rest of the sum); T is double or Pair.
  template <std::size_t N, std::size_t Size, class T>
  static T hornerFirst(const double (&coefficients)[Size], T w) {
    static_assert(N >= 2 && N <= Size);
    return hornerSteps<N>(coefficients, w, std::make_index_sequence<N - 1>());
  }
  template <std::size_t Size>
  static double horner(const double (&coefficients)[Size], double w) {
    return hornerFirst<Size>(coefficients, w);
  }
  template <std::size_t N, std::size_t Size, class T, std::size_t... K>
  static T hornerSteps(const double (&coefficients)[Size], T w, std::index_sequence<K...>) {
    T r = T{} + coefficients[N - 1];
    ((r = r * w + coefficients[N - 2 - K]), ...);
    return r;
  }

  double excess_[2] = {0, 0};  // Π(1 + e_l) - 1 over alternate terms z ≤ 4, e_l = I₀(z_l) - 1
  double exponents_ = 0;       // Σ z_l over the terms z > 4
  double scaled_ = 1;          // Π f(1/z_l) over those, renormalised
  double arguments_ = 1;       // Π z_l over those, renormalised
  double logs_ = 0;            // logarithms already taken (renormalisation, flushes, huge z)
  int pending_ = 0;            // factors since the last renormalisation
  int odd_ = 0;                // which of excess_ takes the next small term
};

}  // namespace rfscope
