#pragma once
// Input regimes: how pairs (x, y) are drawn. Every regime of the papers is a base distribution
// scaled by σ (N(0, σ²I) = σ·N(0, I), σS^{d-1}, σ·MNIST image, ...), so a regime draws the base pair
// and experiments scale it. Drawing pairs once per seed and reusing them for every σ (common random
// numbers) makes curves smooth in σ and keeps the pairs fixed when only the σ grid changes.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace rfscope {

struct RegimeInfo {
  std::string id;           // "normal"
  std::string name;         // "normal"
  std::string description;  // one line, with σ
};

class Regime {
 public:
  virtual ~Regime() = default;
  virtual const RegimeInfo& info() const = 0;
  // Pair number pairIndex of the base (σ = 1) distribution in dimension d under seed; depends only
  // on (d, seed, pairIndex).
  virtual void sampleBasePair(int dimension, std::uint64_t seed, std::uint64_t pairIndex,
                              Eigen::VectorXd& x, Eigen::VectorXd& y) const = 0;
};

// x, y ~ N(0, I_d) independently (CRT §5.1 "normal").
class NormalRegime final : public Regime {
 public:
  const RegimeInfo& info() const override;
  void sampleBasePair(int dimension, std::uint64_t seed, std::uint64_t pairIndex, Eigen::VectorXd& x,
                      Eigen::VectorXd& y) const override;
};

const std::vector<const Regime*>& allRegimes();
const Regime* findRegime(std::string_view id);

}  // namespace rfscope
