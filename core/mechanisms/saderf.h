#pragma once
// SADERF: the simplified asymmetric dense-exponential random features (Likhosherstov et al.,
// NeurIPS 2023, "FAVOR#"): ADERF with the query and key maps restricted to a diagonal rescaling,
// x̃ = Ψx, ỹ = Ψ⁻¹y, Ψ_l = (mean y_l² / mean x_l²)^{1/4} (saderfParameters in
// dense_exponential.h), and OPRF's A* at the mean |x̃ + ỹ|². Its parameters come from O(Ld)
// per-coordinate statistics instead of ADERF's d×d second moments and eigen-decompositions.

#include "core/mechanisms/dense_exponential_rf.h"

namespace rfscope {

class Saderf final : public DenseExponentialRf {
 public:
  const MechanismInfo& info() const override;
  // From the per-coordinate statistics of the sets (no d×d second moments gathered).
  ParameterSet dataDrivenParameters(SetStatisticsSource& statistics) const override;
  bool usesSecondMoments() const override { return false; }

 protected:
  DerfChoice choose(const DerfMoments& moments, bool denseA) const override;
};

}  // namespace rfscope
