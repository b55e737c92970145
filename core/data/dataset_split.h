#pragma once
// Train/test splits of a labelled dataset drawn from a seed. The training part has
// L = floor(fraction · n) points, as the papers' loader takes int(fraction · len(data)) after a
// random permutation (CRT: 90%, SimRF: 95%); the rest is the test part.
//
// Random (the papers' split): a uniform random permutation (Fisher–Yates), the first L points
// train. Stratified: each class contributes floor(fraction · n_c) points to training, and the
// L - Σ floor(...) still missing go to the classes with the largest remainders (ties: lower class),
// so L is the same as a random split's and each part's class proportions are as close to the
// whole's as whole numbers allow (a class of one point still lies on one side only).
//
// Both parts come in random order, so a prefix of either is a random subset (SimRF restricts
// nursery and chess to 1000 training and 100 test points during its σ search).
//
// Note on CRT's L: with all records kept, 90% of abalone is floor(0.9 · 4177) = 3759 points. CRT
// reports L = 3758 = floor(0.9 · 4176) because its loader dropped each file's last record: its L
// is floor(0.9 · (n - 1)) for all files but nursery (whose last line is blank), one less than
// here. No split rule that keeps every record gives 3758 for abalone and the other seven L's.
//
// Deterministic: the permutation is a function of (seed, purpose) alone, drawn from a Philox
// stream of its own (kSplitStreamBase + purpose) that neither Monte Carlo trials (streams below
// 2^48) nor data regimes' pairs (from 2^48) use.

#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace rfscope {

enum class SplitMode { Random, Stratified };

// Why the split is drawn: the evaluation split (train/test) and the validation split (of the
// training part, for σ search) use different streams under one seed.
enum class SplitPurpose : std::uint64_t { Evaluation = 0, Validation = 1 };

inline constexpr std::uint64_t kSplitStreamBase = std::uint64_t{1} << 62;

struct IndexSplit {
  std::vector<Eigen::Index> train;  // L row indices, random order
  std::vector<Eigen::Index> test;   // n - L row indices, random order
};

// floor(fraction · n) (a product within 1e-9 below a whole number counts as that number); throws
// DataError (key "train-fraction") unless 0 < fraction < 1 and both parts get at least one point.
std::size_t trainingCount(std::size_t n, double fraction);

// The split of points whose classes are `labels` (each in 0..classCount-1).
IndexSplit splitIndices(const std::vector<int>& labels, int classCount, double trainFraction,
                        SplitMode mode, std::uint64_t seed,
                        SplitPurpose purpose = SplitPurpose::Evaluation);

}  // namespace rfscope
