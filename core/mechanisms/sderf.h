#pragma once
// SDERF: the symmetric dense-exponential random features (B₁ = B₂; Likhosherstov et al. 2023,
// "FAVOR#"), with the matrices minimising the mean over all pairs of log(E Z²/K²): eigen
// Σ_p = mean (x + y)(x + y)ᵀ = U diag(λ) Uᵀ, T1 = T2 = Uᵀ, and per eigendirection OPRF's root
// for d = 1 at λ_l (the global optimum; sderfParameters in dense_exponential.h). Isotropic data
// gives OPRF's A*.

#include "core/mechanisms/dense_exponential_rf.h"

namespace rfscope {

class Sderf final : public DenseExponentialRf {
 public:
  const MechanismInfo& info() const override;

 protected:
  DerfChoice choose(const DerfMoments& moments, bool denseA) const override;
};

}  // namespace rfscope
