#pragma once
// How two one-feature estimates that share ω covary for one query x and two keys y_j, y_k — what
// the delta method of random-feature attention needs (core/attention). Cov = K_j K_k c (softmax
// kernel: SM_j SM_k c), with the excess c in one of these forms:
//   CoshDifference   cosh δ - 1,           δ = (x - y_j)ᵀ(x - y_k)          (TrigRF)
//   PhaseDifference  e^δ + ½e^-δ - 1 ≥ √2 - 1                             (random-phase RFF)
//   ExpSum           expm1 σ,             σ = (x + y_j)ᵀ(x + y_k)          (PosRF)
//   CoshSum          cosh σ - 1                                            (hyperbolic PosRF)
//   Optimal          expm1 φ,  φ = d ℓ(r) + (|s_j + s_k|² - r|s_j - s_k|²)/(4r), s = x + y,
//                    r = 1 - 8A, ℓ(r) = log((1 + r)/2) - ½ log r          (OPRF, real GERF s = +1)
//   Dense            expm1 φ,  φ = Σ_l [ℓ(r_l) + ((q_j + q_k)_l² - r_l (q_j - q_k)_l²)/(4r_l)],
//                    q = T1x + T2y                                         (SDERF, ADERF)

#include <memory>

namespace rfscope {

struct DerfParameters;

struct SameQueryCovariance {
  enum class Form { CoshDifference, PhaseDifference, ExpSum, CoshSum, Optimal, Dense };
  Form form = Form::ExpSum;
  double r = 1;                                 // Optimal: 1 - 8A > 0
  std::shared_ptr<const DerfParameters> dense;  // Dense: a, T1, T2
};

}  // namespace rfscope
