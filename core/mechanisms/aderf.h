#pragma once
// ADERF: the asymmetric dense-exponential random features (B₁ ≠ B₂, scalar A; Likhosherstov et
// al. 2023, "FAVOR#", as reconstructed in dense_exponential.h): x̃ = Qx, ỹ = Q^{-T}y with Q from
// the geometric mean of the (ridged) query and key second moments, and OPRF's A* at the mean
// |x̃ + ỹ|² — the global optimum over (scalar A, Q) of the mean log(E Z²/K²) over all pairs.
// Option dense_a (our extension, off by default): per-eigendirection A after the same Q.

#include "core/mechanisms/dense_exponential_rf.h"

namespace rfscope {

class Aderf final : public DenseExponentialRf {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;

 protected:
  DerfChoice choose(const DerfMoments& moments, bool denseA) const override;
  bool denseA(const ParameterSet& params) const override;
};

}  // namespace rfscope
