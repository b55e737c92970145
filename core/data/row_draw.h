#pragma once
// Which stored vectors (images, rows) form pair pairIndex of regimes drawn from data: uniform,
// independent across pairs, and a function of (seed, pairIndex) only.

#include <algorithm>
#include <cstdint>

#include "core/data/regime.h"
#include "core/random/philox_stream.h"

namespace rfscope {

struct RowPair {
  std::uint64_t x = 0, y = 0;
};

namespace detail {
// floor(u·n) for u uniform in (0, 1) with 52 random bits: bias below n·2^-52, negligible.
inline std::uint64_t uniformIndex(PhiloxStream& stream, std::uint64_t n) {
  return std::min(n - 1, static_cast<std::uint64_t>(stream.uniform() * static_cast<double>(n)));
}
}  // namespace detail

// Two different rows of one set of count >= 2 rows (uniform over ordered pairs of distinct rows).
inline RowPair drawDistinctRows(std::uint64_t seed, std::uint64_t pairIndex, std::uint64_t count) {
  PhiloxStream stream(seed, kPairStreamBase + pairIndex);
  RowPair rows;
  rows.x = detail::uniformIndex(stream, count);
  rows.y = detail::uniformIndex(stream, count - 1);
  if (rows.y >= rows.x) ++rows.y;
  return rows;
}

// One row of each of two sets.
inline RowPair drawRows(std::uint64_t seed, std::uint64_t pairIndex, std::uint64_t xCount,
                        std::uint64_t yCount) {
  PhiloxStream stream(seed, kPairStreamBase + pairIndex);
  RowPair rows;
  rows.x = detail::uniformIndex(stream, xCount);
  rows.y = detail::uniformIndex(stream, yCount);
  return rows;
}

}  // namespace rfscope
