#pragma once
// The random-feature kernel classifier of CRT §5.2 / SimRF §5.3: class l of a test point o* scores
//     Ŝ_l(o*) = Σ_{i: label_i = l} K̂(o*, o_i) = f⁽¹⁾(o*)ᵀ Σ_{i: label_i = l} f⁽²⁾(o_i),
// so the training points are summed per class once (O(L·M) after mapping them) and each test point
// costs O(C·M): O((n + L)·M·d) in all, never the n × L kernel matrix.
//
// Positive features of standardised data at large σ overflow a double (exp(ωᵀx) > 1e308); the
// feature maps keep them as values ≤ 1 with a power-of-two log-scale per point, and the class sums
// keep one log-scale per class (the largest of its points'), so that scores are formed in the log
// domain: log|Ŝ_l| = logScale(o*) + m_l + log|f⁽¹⁾·C_l|. Points of a class whose scale lies more
// than ~745 nats below the class's largest flush to zero, as in feature_map.h.

#include <vector>

#include <Eigen/Core>

namespace rfscope {

class FeatureMap;
struct FeatureMatrix;

struct ClassScores {
  // Ŝ_l(o*) = values(j, l) · exp(logScale(j)); each row's largest |value| is 1 (or the row is 0).
  Eigen::MatrixXd values;
  Eigen::VectorXd logScale;
};

// The scores of the test points (rows of `test`) for classes 0..classCount-1, from the training
// points (rows of `train`) with their labels. A class without training points scores 0.
ClassScores randomFeatureClassScores(const FeatureMap& map, const Eigen::MatrixXd& train,
                                     const std::vector<int>& trainLabels, int classCount,
                                     const Eigen::MatrixXd& test);
// The classifier in two steps, for callers that keep more of the features: the training points'
// features summed per class, sums.row(l) · exp(logScale(l)) = Σ_{i: label_i = l} f⁽²⁾(o_i); and
// the scores of test points from their queries. firstKeys, when given, receives the keys of the
// first firstCount training points (rows map independently: the same bits as mapping them alone).
struct ClassFeatureSums {
  Eigen::MatrixXd sums;      // C × width
  Eigen::VectorXd logScale;  // C
};
ClassFeatureSums classFeatureSums(const FeatureMap& map, const Eigen::MatrixXd& train,
                                  const std::vector<int>& trainLabels, int classCount,
                                  FeatureMatrix* firstKeys = nullptr, Eigen::Index firstCount = 0);
ClassScores classScores(const ClassFeatureSums& classes, const FeatureMatrix& queries);

}  // namespace rfscope
