#include "core/couplings/norm_coupling.h"

#include <cmath>

#include <boost/math/special_functions/gamma.hpp>

namespace rfscope {

AntitheticNorms antitheticChiNorms(int d, double t) {
  // r² / 2 ~ Gamma(d/2): P⁻¹ gives the lower quantile, Q⁻¹ the upper one at the same t.
  const double a = 0.5 * d;
  return {std::sqrt(2 * boost::math::gamma_p_inv(a, t)),
          std::sqrt(2 * boost::math::gamma_q_inv(a, t))};
}

Eigen::VectorXd pairCoupledBlockNorms(TrialStream& rng, int d) {
  Eigen::VectorXd norms(d);
  for (int i = 0; i + 1 < d; i += 2) {
    const AntitheticNorms pair = antitheticChiNorms(d, rng.uniform());
    norms[i] = pair.first;
    norms[i + 1] = pair.second;
  }
  if (d % 2 == 1) norms[d - 1] = antitheticChiNorms(d, rng.uniform()).first;
  return norms;
}

}  // namespace rfscope
