#pragma once
// The synthetic regimes of CRT §5.1, all built from standard normals (base distributions, σ = 1):
//   normal     x, y ~ N(0, I_d) independently
//   sphere     x, y uniform on the unit sphere S^{d-1} (normalised standard normals)
//   heterogen  x ~ N(0, I_d), y ~ N(1_d, I_d)

#include "core/data/regime.h"

namespace rfscope {

class NormalRegime final : public Regime {
 public:
  const RegimeInfo& info() const override;
  std::shared_ptr<const PairSampler> prepare(int dimension, const ParameterSet&) const override;
};

class SphereRegime final : public Regime {
 public:
  const RegimeInfo& info() const override;
  std::shared_ptr<const PairSampler> prepare(int dimension, const ParameterSet&) const override;
};

class HeterogenRegime final : public Regime {
 public:
  const RegimeInfo& info() const override;
  std::shared_ptr<const PairSampler> prepare(int dimension, const ParameterSet&) const override;
};

}  // namespace rfscope
