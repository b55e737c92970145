#include "core/mechanisms/saderf.h"

namespace rfscope {

const MechanismInfo& Saderf::info() const {
  static const MechanismInfo info{
      "saderf",
      "SADERF",
      "Simplified asymmetric dense-exponential random features (FAVOR#): scalar A, queries "
      "scaled by Ψ and keys by Ψ⁻¹ per coordinate, Ψ_l = (mean y_l² / mean x_l²)^{1/4}",
      "Likhosherstov et al. 2023 (FAVOR#, arXiv 2302.00787); variance and optimum derived here "
      "(the paper was not available)",
      true,
      true,
      Rgb{90, 150, 110}};
  return info;
}

ParameterSet Saderf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  const SetStatistics& s = statistics.plain();
  if (s.meanXSquares.size() == 0) return {};  // empty sets: each pair chooses its own
  // The attachment carries the diagonal moments: all that SADERF reads.
  DerfMoments moments;
  moments.m1 = s.meanXSquares.asDiagonal();
  moments.m2 = s.meanYSquares.asDiagonal();
  moments.mean1 = s.meanX;
  moments.mean2 = s.meanY;
  return chosenParameters(moments);
}

DerfChoice Saderf::choose(const DerfMoments& moments, bool) const {
  return saderfParameters(moments);
}

}  // namespace rfscope
