#include "core/mechanisms/aderf.h"

#include "core/mechanisms/mechanism_parameters.h"

namespace rfscope {

const MechanismInfo& Aderf::info() const {
  static const MechanismInfo info{
      "aderf",
      "ADERF",
      "Asymmetric dense-exponential random features (FAVOR#): scalar A, query and key maps from "
      "the data's second moments",
      "Likhosherstov et al. 2023 (FAVOR#); construction, variance and optimum derived here "
      "(the paper was not available)",
      true,
      true,
      Rgb{140, 175, 30}};
  return info;
}

std::vector<ParameterSpec> Aderf::parameters() const {
  auto dense = booleanParameter("dense_a", "Dense A", false,
                                "our extension: a dense A from the eigen-decomposition of mean "
                                "(x̃ + ỹ)(x̃ + ỹ)ᵀ after the same Q (scalar A: the paper's ADERF)");
  dense.group = "Estimator";
  return {dense};
}

DerfChoice Aderf::choose(const DerfMoments& moments, bool denseA) const {
  return aderfParameters(moments, denseA);
}

bool Aderf::denseA(const ParameterSet& params) const {
  return booleanOr(params, "dense_a", false);
}

}  // namespace rfscope
