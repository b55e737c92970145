#include "core/data/dataset_split.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/data/data_error.h"
#include "core/random/philox_stream.h"

namespace rfscope {
namespace {

// floor(u · n) for u uniform in (0, 1) with 52 random bits (bias below n · 2^-52).
std::size_t uniformIndex(PhiloxStream& stream, std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(stream.uniform() * static_cast<double>(n)));
}

// Fisher–Yates.
void shuffle(std::vector<Eigen::Index>& items, PhiloxStream& stream) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const std::size_t j = uniformIndex(stream, i);
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace

std::size_t trainingCount(std::size_t n, double fraction) {
  if (!(fraction > 0 && fraction < 1))
    throw DataError(
        "train-fraction must lie strictly between 0 and 1 (the papers use 0.9 and "
        "0.95)",
        "train-fraction");
  const auto count = static_cast<std::size_t>(std::floor(fraction * static_cast<double>(n) + 1e-9));
  if (count == 0 || count >= n)
    throw DataError("train-fraction " + std::to_string(fraction) + " of " + std::to_string(n) +
                        " points leaves " + (count == 0 ? "no training" : "no test") + " points",
                    "train-fraction");
  return count;
}

IndexSplit splitIndices(const std::vector<int>& labels, int classCount, double trainFraction,
                        SplitMode mode, std::uint64_t seed, SplitPurpose purpose) {
  const std::size_t n = labels.size();
  const std::size_t trainCount = trainingCount(n, trainFraction);
  PhiloxStream stream(seed, kSplitStreamBase + static_cast<std::uint64_t>(purpose));
  IndexSplit split;
  if (mode == SplitMode::Random) {
    std::vector<Eigen::Index> order(n);
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    shuffle(order, stream);
    split.train.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(trainCount));
    split.test.assign(order.begin() + static_cast<std::ptrdiff_t>(trainCount), order.end());
    return split;
  }

  std::vector<std::vector<Eigen::Index>> members(static_cast<std::size_t>(classCount));
  for (std::size_t i = 0; i < n; ++i)
    members[static_cast<std::size_t>(labels[i])].push_back(static_cast<Eigen::Index>(i));
  // Largest remainders: quotas fraction · n_c rounded down, then one more for the classes with the
  // largest fractional parts until the quotas sum to trainCount.
  std::vector<std::size_t> quota(members.size());
  std::vector<double> remainder(members.size());
  std::size_t assigned = 0;
  for (std::size_t c = 0; c < members.size(); ++c) {
    const double exact = trainFraction * static_cast<double>(members[c].size());
    quota[c] = std::min(members[c].size(), static_cast<std::size_t>(std::floor(exact + 1e-9)));
    remainder[c] = exact - static_cast<double>(quota[c]);
    assigned += quota[c];
  }
  std::vector<std::size_t> byRemainder(members.size());
  std::iota(byRemainder.begin(), byRemainder.end(), std::size_t{0});
  std::stable_sort(byRemainder.begin(), byRemainder.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t k = 0; assigned < trainCount && k < byRemainder.size(); ++k) {
    const std::size_t c = byRemainder[k];
    if (quota[c] < members[c].size()) ++quota[c], ++assigned;
  }
  for (std::size_t c = 0; c < members.size(); ++c) {
    shuffle(members[c], stream);
    const auto cut = members[c].begin() + static_cast<std::ptrdiff_t>(quota[c]);
    split.train.insert(split.train.end(), members[c].begin(), cut);
    split.test.insert(split.test.end(), cut, members[c].end());
  }
  shuffle(split.train, stream);
  shuffle(split.test, stream);
  return split;
}

}  // namespace rfscope
