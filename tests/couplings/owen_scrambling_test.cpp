// Owen's nested uniform scrambling (owen_scrambling.h): a bijection that keeps every dyadic
// stratification of the points, each scrambled point uniform, and — unlike a digital shift — the
// scrambled points of one draw not a rigid translate of the unscrambled ones.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include <boost/random/sobol.hpp>

#include "core/couplings/owen_scrambling.h"

namespace rfscope {
namespace {

// Coordinate `coordinate` of the first `count` Sobol points in d dimensions (the origin first),
// as frequencies.cpp takes them.
std::vector<std::uint64_t> sobolCoordinate(int d, int coordinate, std::int64_t count) {
  boost::random::sobol_engine<std::uint64_t, 64> sobol(static_cast<std::size_t>(d));
  std::vector<std::uint64_t> out(static_cast<std::size_t>(count), 0);
  for (std::int64_t j = 1; j < count; ++j)
    for (int i = 0; i < d; ++i) {
      const std::uint64_t value = sobol();
      if (i == coordinate) out[static_cast<std::size_t>(j)] = value;
    }
  return out;
}

TEST(OwenScramble, DepthIsTheCeilingOfLog2) {
  EXPECT_EQ(OwenScramble::depthFor(0), 0);
  EXPECT_EQ(OwenScramble::depthFor(1), 0);
  EXPECT_EQ(OwenScramble::depthFor(2), 1);
  EXPECT_EQ(OwenScramble::depthFor(3), 2);
  EXPECT_EQ(OwenScramble::depthFor(256), 8);
  EXPECT_EQ(OwenScramble::depthFor(257), 9);
}

TEST(OwenScramble, SobolCoordinatesHaveDistinctLeadingDigits) {
  // What the scramble's exactness below depth D rests on: in d = 64, the first M points of every
  // coordinate have distinct leading ⌈log₂ M⌉ digits, for M up to 1024 (and any M below).
  for (const std::int64_t count : {5, 64, 100, 1024}) {
    const int depth = OwenScramble::depthFor(count);
    for (const int coordinate : {0, 1, 17, 63}) {
      std::set<std::uint64_t> prefixes;
      for (const std::uint64_t bits : sobolCoordinate(64, coordinate, count))
        prefixes.insert(bits >> (64 - depth));
      EXPECT_EQ(prefixes.size(), static_cast<std::size_t>(count))
          << "M = " << count << ", coordinate " << coordinate;
    }
  }
}

TEST(OwenScramble, KeepsEveryDyadicStratificationAndIsNotAShift) {
  // Points j/2^k (k = 6) scramble to a permutation of the 64 cells at every depth up to 6, and the
  // map differs from x ↦ x ⊕ c: some pair's XOR changes (a shift keeps every pair's XOR).
  const std::int64_t count = 64;
  std::vector<std::uint64_t> points;
  for (std::int64_t j = 0; j < count; ++j)
    points.push_back(static_cast<std::uint64_t>(j) << 58);
  int notShifts = 0;
  for (std::uint64_t trial = 0; trial < 20; ++trial) {
    TrialStream rng(11, trial);
    OwenScramble scramble;
    scramble.draw(rng, count);
    std::vector<std::uint64_t> out;
    for (const std::uint64_t p : points)
      out.push_back(scramble.apply(p));
    for (int depth = 1; depth <= 6; ++depth) {
      std::vector<int> perCell(std::size_t{1} << depth, 0);
      for (const std::uint64_t v : out)
        ++perCell[v >> (64 - depth)];
      for (const int n : perCell)
        EXPECT_EQ(n, count >> depth) << "depth " << depth;
    }
    bool shift = true;
    for (std::size_t j = 1; j < points.size(); ++j)
      shift = shift && ((out[j] ^ out[0]) == (points[j] ^ points[0]));
    notShifts += !shift;
  }
  EXPECT_EQ(notShifts, 20);
}

TEST(OwenScramble, EachScrambledPointIsUniform) {
  // Over 20000 draws the scrambled value of a fixed point has mean ½ and variance 1/12 (99.9%
  // intervals), and its leading 3 digits fall in the 8 cells evenly (χ², 7 degrees of freedom,
  // below the 99.9% quantile 24.3).
  constexpr int kDraws = 20000;
  const std::vector<std::uint64_t> points = sobolCoordinate(5, 3, 100);
  for (const std::size_t index : {std::size_t{0}, std::size_t{37}, std::size_t{99}}) {
    double sum = 0, squares = 0;
    std::vector<int> cells(8, 0);
    for (int t = 0; t < kDraws; ++t) {
      TrialStream rng(5, static_cast<std::uint64_t>(t));
      OwenScramble scramble;
      scramble.draw(rng, 100);
      const std::uint64_t v = scramble.apply(points[index]);
      const double u = static_cast<double>(v >> 11) * 0x1p-53;
      sum += u;
      squares += u * u;
      ++cells[v >> 61];
    }
    const double mean = sum / kDraws, variance = squares / kDraws - mean * mean;
    EXPECT_NEAR(mean, 0.5, 3.29 * std::sqrt(1.0 / 12 / kDraws)) << index;
    EXPECT_NEAR(variance, 1.0 / 12, 3.29 * std::sqrt(1.0 / 180 / kDraws)) << index;
    double chi2 = 0;
    for (const int n : cells)
      chi2 += (n - kDraws / 8.0) * (n - kDraws / 8.0) / (kDraws / 8.0);
    EXPECT_LT(chi2, 24.3) << index;
  }
}

TEST(OwenScramble, DeterministicFromTheStream) {
  const std::vector<std::uint64_t> points = sobolCoordinate(3, 1, 16);
  OwenScramble a, b;
  TrialStream first(9, 4), second(9, 4);
  a.draw(first, 16);
  b.draw(second, 16);
  for (const std::uint64_t p : points)
    EXPECT_EQ(a.apply(p), b.apply(p));
}

}  // namespace
}  // namespace rfscope
