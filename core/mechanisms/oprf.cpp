#include "core/mechanisms/oprf.h"

#include <cmath>

#include "core/analytic/log_math.h"

namespace rfscope {

double oprfRMinusOne(int dimension, double u) {
  const double d = dimension;
  const double root = std::sqrt((2 * u + d) * (2 * u + d) + 8 * d * u);
  return (2 * u + 4 * u * (u + 3 * d) / (root + d)) / (2 * d);
}

double oprfLogVariance(int dimension, double diffNormSquared, double sumNormSquared) {
  const double d = dimension;
  const double u = sumNormSquared;
  if (!(u > 0)) return kNegativeInfinity;  // x = -y: the estimator is exact
  const double delta = oprfRMinusOne(dimension, u);
  const double r = 1 + delta;
  const double g = d * std::log1p(0.5 * delta) - 0.5 * d * std::log1p(delta) + u / r;
  return -diffNormSquared + logExpm1(g);
}

const MechanismInfo& Oprf::info() const {
  static const MechanismInfo info{
      "oprf",
      "OPRF",
      "Optimal positive random features (FAVOR++): GERF with s=+1, optimal real A",
      "Likhosherstov et al. 2022 (CRT), Thm 3.3",
      true,
      true};
  return info;
}

VarianceResult Oprf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  result.available = true;
  const auto& g = pair.geometry;
  const double delta = oprfRMinusOne(g.dimension, g.sumNormSquared);
  result.logVariance = oprfLogVariance(g.dimension, g.diffNormSquared, g.sumNormSquared);
  result.parametersUsed.set("A", -delta / 8);
  result.parametersUsed.set("rho", 1 / (1 + delta));
  return result;
}

}  // namespace rfscope
