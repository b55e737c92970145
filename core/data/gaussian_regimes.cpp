#include "core/data/gaussian_regimes.h"

#include "core/data/data_error.h"
#include "core/random/philox_stream.h"

namespace rfscope {
namespace {

enum class Shape { Normal, Sphere, Heterogen };

class GaussianSampler final : public PairSampler {
 public:
  GaussianSampler(int dimension, Shape shape) : dimension_(dimension), shape_(shape) {}
  int dimension() const override { return dimension_; }

  void sampleBasePair(std::uint64_t seed, std::uint64_t pairIndex, Eigen::VectorXd& x,
                      Eigen::VectorXd& y) const override {
    PhiloxStream stream(seed, kPairStreamBase + pairIndex);
    x.resize(dimension_);
    y.resize(dimension_);
    for (int i = 0; i < dimension_; ++i)
      x[i] = stream.normal();
    for (int i = 0; i < dimension_; ++i)
      y[i] = stream.normal();
    if (shape_ == Shape::Sphere) {
      // A standard normal vector's direction is uniform on the sphere; its norm is 0 with
      // probability 0 (and the generator never yields an all-zero vector in practice).
      x /= x.norm();
      y /= y.norm();
    } else if (shape_ == Shape::Heterogen) {
      y.array() += 1.0;
    }
  }

 private:
  int dimension_;
  Shape shape_;
};

std::shared_ptr<const PairSampler> makeSampler(const Regime& regime, int dimension, Shape shape) {
  if (const std::string error = regime.dimensionError(dimension); !error.empty())
    throw DataError(error, "d");
  return std::make_shared<GaussianSampler>(dimension, shape);
}

}  // namespace

const RegimeInfo& NormalRegime::info() const {
  static const RegimeInfo info{"normal", "normal", "x, y ~ N(0, σ²I_d) independently"};
  return info;
}

std::shared_ptr<const PairSampler> NormalRegime::prepare(int dimension, const ParameterSet&) const {
  return makeSampler(*this, dimension, Shape::Normal);
}

const RegimeInfo& SphereRegime::info() const {
  static const RegimeInfo info{"sphere", "sphere",
                               "x, y uniform on the sphere σS^{d-1} (|x| = |y| = σ) independently"};
  return info;
}

std::shared_ptr<const PairSampler> SphereRegime::prepare(int dimension, const ParameterSet&) const {
  return makeSampler(*this, dimension, Shape::Sphere);
}

const RegimeInfo& HeterogenRegime::info() const {
  static const RegimeInfo info{"heterogen", "heterogen",
                               "x ~ N(0, σ²I_d), y ~ N(σ1_d, σ²I_d) independently"};
  return info;
}

std::shared_ptr<const PairSampler> HeterogenRegime::prepare(int dimension,
                                                            const ParameterSet&) const {
  return makeSampler(*this, dimension, Shape::Heterogen);
}

}  // namespace rfscope
