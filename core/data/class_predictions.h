#pragma once
// From class scores to predictions and their quality, shared by the exact-kernel classifier and
// the random-feature classifiers: predicted class = argmax over classes of the score row, accuracy
// = fraction of correct predictions, disagreement = fraction of points two classifiers predict
// differently (how often an estimator's variance changes a decision).

#include <vector>

#include <Eigen/Core>

namespace rfscope {

// The column of the largest score in each row (points × classes); ties go to the lowest class, as
// NumPy's argmax. NaN scores never win; a row of NaN only predicts -1 (never correct).
std::vector<int> argmaxClasses(const Eigen::MatrixXd& scores);

// Fraction of predicted[i] == truth[i] (sizes must agree; 0 for no points).
double accuracy(const std::vector<int>& predicted, const std::vector<int>& truth);

// Fraction of a[i] != b[i].
double disagreement(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace rfscope
