#include "core/mechanisms/aderf.h"

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

DerfChoice Aderf::choose(const DerfMoments& moments) const {
  return aderfParameters(moments);
}

}  // namespace rfscope
