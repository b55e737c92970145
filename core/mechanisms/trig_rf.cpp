#include "core/mechanisms/trig_rf.h"

#include <cmath>

namespace rfscope {

const MechanismInfo& TrigRf::info() const {
  static const MechanismInfo info{"trig",
                                  "TrigRF",
                                  "Random Fourier features: cos/sin of ωᵀx, ω ~ N(0, I)",
                                  "Rahimi & Recht 2007; variance from CRT §2.2",
                                  false,
                                  true};
  return info;
}

VarianceResult TrigRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  result.available = true;
  const double oneMinusKSquared = -std::expm1(-pair.geometry.diffNormSquared);
  result.logVariance =
      oneMinusKSquared > 0 ? std::log(0.5) + 2.0 * std::log(oneMinusKSquared) : kNegativeInfinity;
  return result;
}

}  // namespace rfscope
