#include "core/data/class_predictions.h"

#include <cmath>

#include "core/math/contract.h"

namespace rfscope {
namespace {

double fractionEqual(const std::vector<int>& a, const std::vector<int>& b) {
  RFSCOPE_EXPECTS(a.size() == b.size(), "class lists of different lengths");
  if (a.empty()) return 0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(a.size());
}

}  // namespace

std::vector<int> argmaxClasses(const Eigen::MatrixXd& scores) {
  std::vector<int> classes(static_cast<std::size_t>(scores.rows()), -1);
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    int best = -1;
    for (Eigen::Index c = 0; c < scores.cols(); ++c) {
      const double score = scores(i, c);
      if (std::isnan(score)) continue;
      if (best < 0 || score > scores(i, best)) best = static_cast<int>(c);
    }
    classes[static_cast<std::size_t>(i)] = best;
  }
  return classes;
}

double accuracy(const std::vector<int>& predicted, const std::vector<int>& truth) {
  return fractionEqual(predicted, truth);
}

double disagreement(const std::vector<int>& a, const std::vector<int>& b) {
  return a.empty() ? 0.0 : 1.0 - fractionEqual(a, b);
}

}  // namespace rfscope
