#include "core/mechanisms/pos_rf.h"

#include "core/analytic/log_math.h"

namespace rfscope {

const MechanismInfo& PosRf::info() const {
  static const MechanismInfo info{"pos",
                                  "PosRF",
                                  "Positive random features of FAVOR+: exp(ωᵀx - |x|²)",
                                  "Choromanski et al. 2021; variance from CRT §2.2",
                                  true,
                                  false};
  return info;
}

VarianceResult PosRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  result.available = true;
  const double u = pair.geometry.sumNormSquared;
  result.logVariance = u > 0 ? -pair.geometry.diffNormSquared + logExpm1(u) : kNegativeInfinity;
  return result;
}

}  // namespace rfscope
