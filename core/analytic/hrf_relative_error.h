#pragma once
// Relative error ε = √MSE / SM of softmax-kernel estimators on the sphere S(r) (HRF, Choromanski et
// al. 2022, Def. 3.3), in logs. θ is the angle between x and y, m the number of features (ω's), n
// the number of τ's of the angular hybrid.
//   Lemma 3.4:  ε_θ,r(trig) = ε_{π-θ},r(pos-hyp) = e^{2r² sin²(θ/2)} (1 - e^{-4r² sin²(θ/2)}) /
//   √(2m),
//               max over θ: W(r)/√(2m), W(r) = e^{2r²}(1 - e^{-4r²}).
//   Thm 3.5:    max_θ ε(angular hybrid) <= W(r)/(r√(2m)) · √(1/π - 1/(nπ) + 1/(n√π))  for r >= 1.

#include <cstdint>

namespace rfscope {

double logTrigRelativeError(double theta, double r, std::int64_t m);
double logPosHypRelativeError(double theta, double r, std::int64_t m);
double logMaxBaseRelativeError(double r, std::int64_t m);  // log(W(r)/√(2m))
// Thm 3.5's bound; NaN for r < 1 where the theorem says nothing.
double logAngularHybridBound(double r, std::int64_t m, std::int64_t n);
// The exact ε of the angular hybrid (independent base estimators) at angle θ on S(r), from the
// closed form of HybridAngularRf (Thm 3.1 + Lemma 3.2).
double logAngularHybridRelativeError(double theta, double r, std::int64_t m, std::int64_t n);

}  // namespace rfscope
