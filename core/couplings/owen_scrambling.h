#pragma once
// Owen's nested uniform scrambling in base 2 (Owen 1995; Owen 1997, "Monte Carlo variance of
// scrambled net quadrature") of one coordinate of the first M points of a digital sequence, as
// 64-bit fractions. Digit k of a scrambled value is digit k of the point XOR a random bit that
// depends on the point's first k - 1 digits (one independent bit per node of the binary tree of
// prefixes), so every scrambled point is uniform on [0, 1) while any net property of the points
// survives — unlike a digital shift (one bit per depth, the same for all points), which keeps the
// points' pattern rigid.
//
// The tree is infinite; only its top D = ⌈log₂ M⌉ levels are drawn node by node (2^D - 1 bits).
// Below depth D the first M points of a Sobol coordinate (a (0, D, 1)-net: the first 2^D points
// have distinct leading D digits) lie in distinct subtrees, so the flips of their remaining digits
// come from disjoint sets of independent bits: one uniform 64-bit word per node at depth D draws
// them exactly. Random bits come from the caller's Philox stream in a fixed order (the tree's bits
// in heap order, packed 64 to a word, then the 2^D tail words), so a scramble depends only on
// (seed, stream).

#include <cstdint>
#include <vector>

#include "core/random/trial_stream.h"

namespace rfscope {

class OwenScramble {
 public:
  // The number of levels drawn node by node for `count` points: ⌈log₂ count⌉ (0 for count <= 1).
  static int depthFor(std::int64_t count);

  // Draws a fresh scramble for points whose leading depthFor(count) digits are distinct.
  void draw(TrialStream& rng, std::int64_t count);
  // The scrambled fraction of `bits`.
  std::uint64_t apply(std::uint64_t bits) const;

 private:
  int depth_ = 0;
  std::vector<std::uint64_t> tree_;   // the flip bit of node (depth k, prefix p) at bit 2^k - 1 + p
  std::vector<std::uint64_t> tails_;  // the flips below depth D of the subtree with prefix p
};

}  // namespace rfscope
