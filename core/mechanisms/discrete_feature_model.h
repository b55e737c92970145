#pragma once
// Discretely-induced random features (CRT §3.2): ω has i.i.d. integer coordinates, Poisson(λ) or
// Geometric(p), and one feature product is
//   f(ω, x) f(ω, y) = exp(c) · Π_l sign_l^{ω_l} exp(ω_l · weight_l) / (ω_l!)^{factorialPower}
// with weight_l = log|x_l y_l| - log λ (Poisson, factorialPower 0) or log|x_l y_l| - log(1-p)
// (geometric, factorialPower 1); c is carried in the plan's log offset.

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/math/host_device.h"
#include "core/random/distributions.h"

namespace rfscope {

enum class DiscreteDistribution { Poisson, Geometric };

struct DiscreteFeatureModel {
  DiscreteDistribution distribution = DiscreteDistribution::Poisson;
  double parameter = 1;  // λ or p
  int dimension = 0;
  const double* weights = nullptr;     // weight_l (may be -inf where x_l y_l = 0)
  const signed char* signs = nullptr;  // sign of x_l y_l
};

// Draws one ω and returns its feature product as exp(envelopeLog) · factor, factor ∈ {-1, 0, 1}.
template <class Stream>
RFSCOPE_HOST_DEVICE void discreteFeatureTerm(const DiscreteFeatureModel& m, Stream& stream,
                                             double& envelopeLog, double& factor) {
  double logAbs = 0;
  int sign = 1;
  bool zero = false;
  for (int l = 0; l < m.dimension; ++l) {
    const std::int64_t k = m.distribution == DiscreteDistribution::Poisson
                               ? poissonVariate(stream, m.parameter)
                               : geometricVariate(stream, m.parameter);
    if (k == 0) continue;
    if (m.signs[l] == 0) zero = true;  // keep drawing: the stream position must not depend on x
    if (m.signs[l] < 0 && (k % 2) == 1) sign = -sign;
    logAbs += static_cast<double>(k) * m.weights[l];
    if (m.distribution == DiscreteDistribution::Geometric)
      logAbs -= std::lgamma(static_cast<double>(k) + 1.0);
  }
  if (zero) {
    envelopeLog = -std::numeric_limits<double>::infinity();
    factor = 0;
    return;
  }
  envelopeLog = logAbs;
  factor = sign;
}

}  // namespace rfscope
