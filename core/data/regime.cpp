#include "core/data/regime.h"

#include <variant>

#include "core/data/csv_regime.h"
#include "core/data/gaussian_regimes.h"
#include "core/data/mnist_regime.h"

namespace rfscope {

std::string Regime::dimensionError(int dimension) const {
  if (dimension < 1) return "the dimension d must be at least 1, not " + std::to_string(dimension);
  return {};
}

void Regime::sampleBasePair(int dimension, std::uint64_t seed, std::uint64_t pairIndex,
                            Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  prepare(dimension, ParameterSet())->sampleBasePair(seed, pairIndex, x, y);
}

Eigen::MatrixXd samplePoints(const PairSampler& sampler, std::uint64_t seed, std::size_t count) {
  Eigen::MatrixXd points(sampler.dimension(), static_cast<Eigen::Index>(count));
  Eigen::VectorXd x, y;
  for (std::size_t p = 0; 2 * p < count; ++p) {
    sampler.sampleBasePair(seed, p, x, y);
    points.col(static_cast<Eigen::Index>(2 * p)) = x;
    if (2 * p + 1 < count) points.col(static_cast<Eigen::Index>(2 * p + 1)) = y;
  }
  return points;
}

std::string textParameter(const ParameterSet& params, const std::string& key) {
  const ParameterValue* value = params.find(key);
  if (!value) return {};
  const auto* text = std::get_if<std::string>(value);
  return text ? *text : std::string();
}

const std::vector<const Regime*>& allRegimes() {
  static const NormalRegime normal;
  static const SphereRegime sphere;
  static const HeterogenRegime heterogen;
  static const MnistRegime mnist;
  static const CsvRegime csv;
  static const std::vector<const Regime*> regimes{&normal, &sphere, &heterogen, &mnist, &csv};
  return regimes;
}

const Regime* findRegime(std::string_view id) {
  for (const Regime* regime : allRegimes())
    if (regime->info().id == id) return regime;
  return nullptr;
}

}  // namespace rfscope
