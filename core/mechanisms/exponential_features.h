#pragma once
// Generalised exponential random features (CRT eq. 4, Thm 3.1) as one feature map, shared by the
// continuous mechanisms: for ω from the coupling,
//   f⁽¹⁾(ω, x) = D exp(A|ω|² + Bωᵀx + C|x|²),  f⁽²⁾(ω, y) = D exp(A|ω|² + sBωᵀy + C|y|²),
//   B = √(s(1-4A)), C = -(s+1)/2, D = (1-4A)^{n/4}  (principal roots, n the frequency dimension),
// E[Re f⁽¹⁾ f⁽²⁾] = K(x, y) for Re(1 - 4A) > 0. TrigRF is A = 0, s = -1 (f = e^{iωᵀx}); PosRF is
// A = 0, s = +1 (f = e^{ωᵀx - |x|²}); OPRF a real A with s = +1; the hyperbolic PosRF averages
// the pair ω, -ω (antithetic). Features are real (one column per ω) when A is real and s = +1,
// otherwise complex (two columns: Re f, and Im f on queries, -Im f on keys).

#include <complex>
#include <memory>

#include "core/math/outcome.h"
#include "core/mechanisms/feature_map.h"

namespace rfscope {

struct GeneralizedExponential {
  std::complex<double> a{0.0, 0.0};
  int s = 1;                // +1 or -1
  bool antithetic = false;  // average over ω and -ω (real features only)
};

// One draw of the features; unavailable when Re(1 - 4A) <= 0 (the estimator is not defined).
Outcome<std::unique_ptr<FeatureMap>> drawExponentialFeatureMap(const GeneralizedExponential& g,
                                                               const FeatureMapSpec& spec,
                                                               TrialStream& stream);

}  // namespace rfscope
