#include "core/couplings/coupling.h"

namespace rfscope {

const std::vector<CouplingInfo>& allCouplings() {
  static const std::vector<CouplingInfo> couplings{
      {"iid", "IID", "independent ω ~ N(0, I)"},
      {"orf", "ORF", "orthogonal blocks of d directions with χ_d norms (Yu et al. 2016)"},
      {"simrf", "SimRF",
       "simplex blocks: d directions at pairwise angle arccos(-1/(d-1)) (Reid et al. 2023)"},
      {"simrf-plus", "SimRF+",
       "simplex blocks re-arranged by the norms: each ω points away from the sum of the others "
       "(SimRF eq. 17; Monte Carlo only)"},
      {"orf-fast", "ORF (fast)",
       "orthogonal blocks from the structured product H D₃ H D₂ H D₁, d padded to a power of two "
       "(Monte Carlo only)"},
      {"simrf-fast", "SimRF (fast)",
       "simplex blocks rotated by H D₃ H D₂ H D₁ instead of a Haar matrix (Monte Carlo only)"},
  };
  return couplings;
}

const CouplingInfo* findCoupling(std::string_view id) {
  for (const auto& coupling : allCouplings())
    if (coupling.id == id) return &coupling;
  return nullptr;
}

}  // namespace rfscope
