#pragma once
// The product f⁽¹⁾(ω, x) f⁽²⁾(ω, y) of every continuous mechanism (trig, pos, pos-hyp, gerf, oprf)
// is one generalized exponential (CRT eq. 4):
//   Re exp(α|ω|² + β_p ωᵀ(x+y) + β_q ωᵀ(x-y) + γ),   α, β_p, β_q, γ complex,
// optionally averaged with ω → -ω (the antithetic pair of pos-hyp). Random-phase Fourier features
// (trig-phase) are the one exception: 2 cos(ωᵀx + b) cos(ωᵀy + b) with a uniform phase b drawn
// per feature after ω (randomPhase; the other coefficients are unused). Re γ is the same for every
// feature, so it is added once per trial (logOffset) instead of once per feature.
// Plain inline math, shared by the CPU and CUDA backends; the SIMD trials repeat it bit for bit
// (hence reproducibleExp).

#include <cmath>

#include "core/math/host_device.h"
#include "core/math/reproducible_exp.h"
#include "core/mechanisms/feature_projection.h"

namespace rfscope {

struct ExponentialFeatureModel {
  double alphaRe = 0, alphaIm = 0;  // coefficient of |ω|²
  double sumRe = 0, sumIm = 0;      // coefficient of ωᵀ(x + y)
  double diffRe = 0, diffIm = 0;    // coefficient of ωᵀ(x - y)
  double gammaIm = 0;               // imaginary part of the constant (its real part: logOffset)
  bool antithetic = false;          // average with ω → -ω
  bool randomPhase = false;         // 2 cos(ωᵀx + b) cos(ωᵀy + b), b ~ U[0, 2π) per feature

  RFSCOPE_HOST_DEVICE bool needsNormSquared() const { return alphaRe != 0 || alphaIm != 0; }
  RFSCOPE_HOST_DEVICE bool needsSum() const { return randomPhase || sumRe != 0 || sumIm != 0; }
  RFSCOPE_HOST_DEVICE bool needsDifference() const {
    return randomPhase || diffRe != 0 || diffIm != 0;
  }
};

// One feature product as exp(envelopeLog) · factor with |factor| <= 1 (see EnvelopeSum).
RFSCOPE_HOST_DEVICE inline void exponentialFeatureTerm(const ExponentialFeatureModel& m,
                                                       const FeatureProjection& w,
                                                       double& envelopeLog, double& factor) {
  if (m.randomPhase) {  // ωᵀx = (ωᵀ(x+y) + ωᵀ(x-y))/2, ωᵀy = (ωᵀ(x+y) - ωᵀ(x-y))/2
    envelopeLog = 0.6931471805599453;  // ln 2
    factor = std::cos(0.5 * (w.onSum + w.onDifference) + w.phase) *
             std::cos(0.5 * (w.onSum - w.onDifference) + w.phase);
    return;
  }
  const double quadraticRe = m.alphaRe * w.normSquared;
  const double quadraticIm = m.alphaIm * w.normSquared + m.gammaIm;
  const double linearRe = m.sumRe * w.onSum + m.diffRe * w.onDifference;
  const double linearIm = m.sumIm * w.onSum + m.diffIm * w.onDifference;
  if (!m.antithetic) {
    envelopeLog = quadraticRe + linearRe;
    factor = (quadraticIm == 0 && linearIm == 0) ? 1.0 : std::cos(quadraticIm + linearIm);
    return;
  }
  // ½ Re(e^{q + l} + e^{q - l}) = e^{Re q + |Re l|} · ½(cos(Im q + Im l) + e^{-2|Re l|} cos(Im q -
  // Im l))
  const double magnitude = std::fabs(linearRe);
  const double signedIm = linearRe >= 0 ? linearIm : -linearIm;
  envelopeLog = quadraticRe + magnitude;
  const double small = reproducibleExp(-2.0 * magnitude);
  if (quadraticIm == 0 && linearIm == 0) {
    factor = 0.5 * (1.0 + small);
  } else {
    factor = 0.5 * (std::cos(quadraticIm + signedIm) + small * std::cos(quadraticIm - signedIm));
  }
}

}  // namespace rfscope
