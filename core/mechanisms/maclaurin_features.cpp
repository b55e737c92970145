#include "core/mechanisms/maclaurin_features.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/math/log_math.h"
#include "core/random/distributions.h"

namespace rfscope {

std::int64_t drawMaclaurinDegree(const MaclaurinLaw& law, TrialStream& stream) {
  return law.degrees == MaclaurinDegrees::Poisson ? poissonVariate(stream, law.lambda)
                                                  : geometricVariate(stream, 0.5);
}

double maclaurinLogWeight(const MaclaurinLaw& law, std::int64_t n) {
  const double degree = static_cast<double>(n);
  if (law.degrees == MaclaurinDegrees::Geometric)
    return (degree + 1) * kLn2 - std::lgamma(degree + 1);
  // n = 0 alone where λ = 0 (λ* of a pair with x or y zero): weight e^0.
  return n == 0 ? law.lambda : law.lambda - degree * std::log(law.lambda);
}

void drawRademacher(TrialStream& stream, int dimension, double* signs) {
  for (int first = 0; first < dimension; first += 64) {
    const std::uint64_t word = stream.bits();
    const int count = std::min(64, dimension - first);
    for (int b = 0; b < count; ++b)
      signs[first + b] = ((word >> b) & 1u) != 0 ? 1.0 : -1.0;
  }
}

namespace {

class MaclaurinFeatureMap final : public FeatureMap {
 public:
  MaclaurinFeatureMap(const FeatureMapSpec& spec, Eigen::MatrixXd signs,
                      std::vector<Eigen::Index> firstVector, Eigen::VectorXd halfLogWeight)
      : FeatureMap(spec.dimension, spec.features, spec.features),
        signs_(std::move(signs)),
        firstVector_(std::move(firstVector)),
        halfLogWeight_(std::move(halfLogWeight)),
        kernel_(spec.kernel),
        logRootFeatures_(0.5 * std::log(static_cast<double>(spec.features))) {}

 protected:
  void map(Side, const Eigen::Ref<const Eigen::MatrixXd>& x, FeatureMatrix& out) const override {
    const Eigen::Index rows = x.rows(), m = features(), d = dimension();
    // Log-magnitudes (M × L, one column per point) and signs.
    Eigen::MatrixXd magnitudes(m, rows);
    Eigen::MatrixXd signs(m, rows);
    std::vector<double> point(static_cast<std::size_t>(d));
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index l = 0; l < d; ++l)
        point[static_cast<std::size_t>(l)] = x(i, l);
      const double normSquared = x.row(i).squaredNorm();
      const double rowConstant =
          -0.5 * normSquared + kernelRowLogScale(kernel_, normSquared) - logRootFeatures_;
      for (Eigen::Index k = 0; k < m; ++k) {
        double logAbs = halfLogWeight_[k] + rowConstant, sign = 1;
        for (Eigen::Index j = firstVector_[static_cast<std::size_t>(k)];
             j < firstVector_[static_cast<std::size_t>(k) + 1]; ++j) {
          double projection = 0;  // Σ_l w_l x_l in order: the same bits as the trial
          for (Eigen::Index l = 0; l < d; ++l)
            projection += signs_(l, j) * point[static_cast<std::size_t>(l)];
          logAbs += std::log(std::abs(projection));  // -inf for a zero projection
          if (projection < 0) sign = -sign;
        }
        magnitudes(k, i) = logAbs;
        signs(k, i) = logAbs == kNegativeInfinity ? 0.0 : sign;
      }
    }
    exponentiateColumns(magnitudes, out.logScale);
    out.values.resize(rows, m);
    for (Eigen::Index k = 0; k < m; ++k)
      for (Eigen::Index i = 0; i < rows; ++i)
        out.values(i, k) = signs(k, i) * magnitudes(k, i);
  }

 private:
  Eigen::MatrixXd signs_;                  // d × (Σ_k N_k): the Rademacher vectors, by column
  std::vector<Eigen::Index> firstVector_;  // feature k's vectors are columns [first_k, first_k+1)
  Eigen::VectorXd halfLogWeight_;          // ½ log(a_N/p(N)) per feature
  Kernel kernel_;
  double logRootFeatures_;
};

}  // namespace

std::unique_ptr<FeatureMap> drawMaclaurinFeatureMap(const MaclaurinLaw& law,
                                                    const FeatureMapSpec& spec,
                                                    TrialStream& stream) {
  const int d = spec.dimension;
  std::vector<Eigen::Index> firstVector{0};
  Eigen::VectorXd halfLogWeight(spec.features);
  std::vector<double> vectors;  // column after column
  std::vector<double> buffer(static_cast<std::size_t>(d));
  for (std::int64_t k = 0; k < spec.features; ++k) {
    const std::int64_t degree = drawMaclaurinDegree(law, stream);
    halfLogWeight[k] = 0.5 * maclaurinLogWeight(law, degree);
    for (std::int64_t j = 0; j < degree; ++j) {
      drawRademacher(stream, d, buffer.data());
      vectors.insert(vectors.end(), buffer.begin(), buffer.end());
    }
    firstVector.push_back(firstVector.back() + static_cast<Eigen::Index>(degree));
  }
  Eigen::MatrixXd signs = Eigen::Map<const Eigen::MatrixXd>(vectors.data(), d, firstVector.back());
  return std::make_unique<MaclaurinFeatureMap>(spec, std::move(signs), std::move(firstVector),
                                               std::move(halfLogWeight));
}

}  // namespace rfscope
