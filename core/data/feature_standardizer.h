#pragma once
// Standardisation of features with statistics of the training points only, as the papers do:
// x → (x - mean) / std per feature, std the population standard deviation (NumPy's default,
// which the papers' loader uses). A feature constant on the training points (a category absent
// from a split's training part, one-hot) has std 0: it is only centred, to exactly 0 there,
// never divided by zero; test points keep their (finite) offset from the constant.

#include <Eigen/Core>

namespace rfscope {

class FeatureStandardizer {
 public:
  FeatureStandardizer() = default;

  // The statistics of `trainingRows` (n × d, one point per row, n >= 1).
  static FeatureStandardizer fit(const Eigen::MatrixXd& trainingRows);

  // Standardises `rows` (m × d) in place.
  void apply(Eigen::MatrixXd& rows) const;

  const Eigen::RowVectorXd& mean() const { return mean_; }
  // The divisor of each feature: its std, or 1 for a constant feature.
  const Eigen::RowVectorXd& scale() const { return scale_; }

 private:
  Eigen::RowVectorXd mean_;
  Eigen::RowVectorXd scale_;
};

}  // namespace rfscope
