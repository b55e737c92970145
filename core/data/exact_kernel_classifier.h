#pragma once
// The exact Gaussian-kernel classifier the random-feature classifiers are compared with (CRT §5.2,
// SimRF §5.3): for a test point o*, class l scores
//     S_l(o*) = Σ_{i: label_i = l} K(σo*, σo_i),   K(x, y) = exp(-|x - y|² / 2),
// i.e. Σ_i K r_i(l) with one-hot r_i, and the prediction is argmax_l S_l (the papers' normalising
// denominator is common to all classes and does not change the argmax).
//
// Computed in the log domain: log S_l = logsumexp over the class's points of -σ²|o* - o_i|²/2, so
// the argmax is right even where every kernel value underflows a double (large σ, far points; as
// σ → ∞ it becomes the nearest-neighbour rule). Squared distances are summed coordinate by
// coordinate (no |x|² + |y|² - 2xᵀy cancellation), in blocks of training points that stay in
// cache, without forming the test × train matrix: O(n L d) time, O(n C) memory for the scores.
// Test points run in parallel; each point's arithmetic is fixed, so results are identical for any
// thread count.

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "core/data/labelled_dataset.h"

namespace rfscope {

// log S_l for each test point (rows) and class l < classCount (columns); -inf for a class without
// training points. `train` (L × d) and `test` (n × d) hold one point per row. `stop`, when given,
// is polled from worker threads; once it returns true the computation ends early and the result is
// an empty (0 × 0) matrix. Mismatched sizes, labels outside 0..classCount-1 or σ not > 0 are
// programmer misuse, asserted (RFSCOPE_EXPECTS, core/math/contract.h).
Eigen::MatrixXd exactKernelLogScores(const Eigen::MatrixXd& train,
                                     const std::vector<int>& trainLabels, int classCount,
                                     const Eigen::MatrixXd& test, double sigma,
                                     const std::function<bool()>& stop = {});

// argmax_l S_l for each test point.
std::vector<int> exactKernelPredictions(const LabelledDataset& train, const Eigen::MatrixXd& test,
                                        double sigma);

// Fraction of test points whose predicted class is their label.
double exactKernelAccuracy(const LabelledDataset& train, const LabelledDataset& test, double sigma);

}  // namespace rfscope
