#include "core/mechanisms/dense_exponential_features.h"

#include <cmath>

#include "core/mechanisms/feature_map_recipe.h"
#include "core/params/invalid_parameter.h"

namespace rfscope {
namespace {

class DenseExponentialFeatureMap final : public FeatureMap {
 public:
  DenseExponentialFeatureMap(DerfParameters p, const FeatureMapSpec& spec, Eigen::MatrixXd omega)
      : FeatureMap(spec.dimension, spec.features, spec.features),
        p_(std::move(p)),
        omega_(std::move(omega)),
        kernel_(spec.kernel),
        rootFeatures_(std::sqrt(static_cast<double>(spec.features))) {}

  bool symmetric() const override { return p_.t1 == p_.t2; }

  bool describe(FeatureMapRecipe& out) const override {
    out.form = FeatureMapRecipe::Form::DenseExponential;
    out.kernel = kernel_;
    out.omega = omega_;
    out.derf = p_;
    return true;
  }

 protected:
  void map(Side side, const Eigen::Ref<const Eigen::MatrixXd>& x,
           FeatureMatrix& out) const override {
    Eigen::MatrixXd padded = Eigen::MatrixXd::Zero(x.rows(), omega_.cols());
    padded.leftCols(x.cols()) = x;
    // One column per point, as exponentiateColumns stabilises them.
    Eigen::MatrixXd exponents =
        derfLogFeatures(p_, omega_, padded, side == Side::Queries).transpose();
    for (Eigen::Index i = 0; i < exponents.cols(); ++i)
      exponents.col(i).array() += kernelRowLogScale(kernel_, x.row(i).squaredNorm());
    exponentiateColumns(exponents, out.logScale);
    out.values = exponents.transpose() / rootFeatures_;
  }

 private:
  DerfParameters p_;       // padded to the frequency dimension
  Eigen::MatrixXd omega_;  // M × n
  Kernel kernel_;
  double rootFeatures_;
};

}  // namespace

Outcome<std::unique_ptr<FeatureMap>> drawDenseExponentialFeatureMap(const DerfParameters& p,
                                                                    const FeatureMapSpec& spec,
                                                                    TrialStream& stream) {
  if (!((1.0 - 4.0 * p.a.array()).minCoeff() > 0))
    return Outcome<std::unique_ptr<FeatureMap>>::unavailable("DERF needs I - 4A positive definite");
  FrequencyScratch scratch;
  Eigen::MatrixXd omega;
  frequencies(spec.coupling, spec.dimension, spec.features, stream, scratch, omega,
              spec.simplexPlusIterations);
  if (p.a.size() > omega.cols())
    throw InvalidParameter("dimension", "the DERF matrices are larger than the inputs");
  DerfParameters padded = paddedDerfParameters(p, omega.cols());
  return std::unique_ptr<FeatureMap>(
      std::make_unique<DenseExponentialFeatureMap>(std::move(padded), spec, std::move(omega)));
}

}  // namespace rfscope
