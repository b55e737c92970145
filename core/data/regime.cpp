#include "core/data/regime.h"

#include "core/random/philox_stream.h"

namespace rfscope {

// Pair streams are offset from the streams Monte Carlo uses, so data and features never share
// random numbers under the same seed.
static constexpr std::uint64_t kPairStreamBase = std::uint64_t{1} << 48;

const RegimeInfo& NormalRegime::info() const {
  static const RegimeInfo info{"normal", "normal", "x, y ~ N(0, σ²I_d) independently"};
  return info;
}

void NormalRegime::sampleBasePair(int dimension, std::uint64_t seed, std::uint64_t pairIndex,
                                  Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  PhiloxStream stream(seed, kPairStreamBase + pairIndex);
  x.resize(dimension);
  y.resize(dimension);
  for (int i = 0; i < dimension; ++i) x[i] = stream.normal();
  for (int i = 0; i < dimension; ++i) y[i] = stream.normal();
}

const std::vector<const Regime*>& allRegimes() {
  static const NormalRegime normal;
  static const std::vector<const Regime*> regimes{&normal};
  return regimes;
}

const Regime* findRegime(std::string_view id) {
  for (const Regime* regime : allRegimes())
    if (regime->info().id == id) return regime;
  return nullptr;
}

}  // namespace rfscope
