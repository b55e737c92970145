#include "core/couplings/owen_scrambling.h"

#include <cassert>

namespace rfscope {

int OwenScramble::depthFor(std::int64_t count) {
  int depth = 0;
  while (depth < 62 && (std::int64_t{1} << depth) < count)
    ++depth;
  return depth;
}

void OwenScramble::draw(TrialStream& rng, std::int64_t count) {
  depth_ = depthFor(count);
  const std::size_t nodes = (std::size_t{1} << depth_) - 1;  // above depth D
  tree_.resize((nodes + 63) / 64);
  for (auto& word : tree_)
    word = rng.bits();
  tails_.resize(std::size_t{1} << depth_);
  for (auto& word : tails_)
    word = rng.bits();
}

std::uint64_t OwenScramble::apply(std::uint64_t bits) const {
  if (depth_ == 0) return bits ^ tails_[0];
  std::uint64_t out = 0;
  std::size_t node = 0;  // heap index: 2^k - 1 + (the first k digits)
  for (int k = 0; k < depth_; ++k) {
    const std::uint64_t digit = (bits >> (63 - k)) & 1u;
    const std::uint64_t flip = (tree_[node >> 6] >> (node & 63u)) & 1u;
    out |= (digit ^ flip) << (63 - k);
    node = 2 * node + 1 + static_cast<std::size_t>(digit);
  }
  const std::uint64_t prefix = bits >> (64 - depth_);
  assert(prefix < tails_.size());
  const std::uint64_t below = ~std::uint64_t{0} >> depth_;
  return out | ((bits ^ tails_[prefix]) & below);
}

}  // namespace rfscope
