#include "core/mechanisms/pos_hyp_rf.h"

#include <cmath>

namespace rfscope {

double posHypLogVariance(double diffNormSquared, double sumNormSquared) {
  const double u = sumNormSquared;
  if (!(u > 0)) return kNegativeInfinity;  // x = -y: cosh(0) = 1 exactly
  return -kLn2 - diffNormSquared - u + 2 * logExpm1(u);
}

double sharedOmegaLogCovarianceMagnitude(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  double normGap = 0, diffNormSquared = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    normGap += (x[l] - y[l]) * (x[l] + y[l]);
    diffNormSquared += (x[l] - y[l]) * (x[l] - y[l]);
  }
  const double h = std::sin(0.5 * normGap);
  return kLn2 + 2 * std::log(std::abs(h)) - diffNormSquared;
}

const MechanismInfo& PosHypRf::info() const {
  static const MechanismInfo info{"pos-hyp",
                                  "PosRF (hyperbolic)",
                                  "FAVOR+ with the antithetic pair e^{±ωᵀx}: K̂ ∝ cosh(ωᵀ(x+y))",
                                  "Choromanski et al. 2022 (HRF), Lemma 2.2",
                                  true,
                                  false};
  return info;
}

VarianceResult PosHypRf::logVariance(const PairInput& pair, const ParameterSet&) const {
  VarianceResult result;
  result.available = true;
  result.logVariance =
      posHypLogVariance(pair.geometry.diffNormSquared, pair.geometry.sumNormSquared);
  return result;
}

}  // namespace rfscope
