#include "core/mechanisms/sderf.h"

namespace rfscope {

const MechanismInfo& Sderf::info() const {
  static const MechanismInfo info{
      "sderf",
      "SDERF",
      "Symmetric dense-exponential random features (FAVOR#): matrix A and B chosen from the data's "
      "second moments",
      "Likhosherstov et al. 2023 (FAVOR#); construction, variance and optimum derived here "
      "(the paper was not available)",
      true,
      true,
      Rgb{0, 100, 70}};
  return info;
}

DerfChoice Sderf::choose(const DerfMoments& moments, bool) const {
  return sderfParameters(moments);
}

}  // namespace rfscope
