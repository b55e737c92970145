#pragma once
// Numerical minimisation of the GERF variance (CRT eq. 6) over complex A and s ∈ {±1}, as CRT §3.1
// suggests; CRT gives no closed form beyond real A with s = +1 (that is OPRF).
//
// Method: for each admissible s, start from the best of the closed-form/1-D candidates (s = +1:
// OPRF's A*; s = -1: Brent over real A), then alternate 1-D Brent minimisations (Boost.Math
// brent_find_minima) over Re A (on 1/8 - Re A ∈ [1e-12, 100]) and Im A (on [-100, 100]) until the
// objective stops improving. The objective is log(Var/K²), symmetric in Im A. The result is a local
// optimum that is never worse than OPRF (s = +1) or TrigRF (A = 0, s = -1) when those are allowed.

#include <complex>
#include <optional>

namespace rfscope {

struct GerfConstraints {
  std::optional<double> realA;  // fixed Re A, or optimise it
  std::optional<double> imagA;  // fixed Im A, or optimise it
  std::optional<int> s;         // fixed s, or try both
};

struct GerfOptimum {
  std::complex<double> a;
  int s = 1;
  double logExcess = 0;  // log(Var/K²) at the optimum
};

GerfOptimum optimizeGerf(int dimension, double diffNormSquared, double sumNormSquared,
                         const GerfConstraints& constraints);

}  // namespace rfscope
