#include "core/couplings/coupling.h"

#include <cassert>
#include <limits>

#include "core/params/invalid_parameter.h"

namespace rfscope {

const std::vector<CouplingInfo>& allCouplings() {
  static const std::vector<CouplingInfo> couplings{
      {Coupling::Iid, "iid", "IID", "independent ω ~ N(0, I)", Rgb{0, 114, 178}},
      {Coupling::Orthogonal, "orf", "ORF",
       "orthogonal blocks of d directions with χ_d norms (Yu et al. 2016)", Rgb{213, 94, 0}},
      {Coupling::Simplex, "simrf", "SimRF",
       "simplex blocks: d directions at pairwise angle arccos(-1/(d-1)) (Reid et al. 2023)",
       Rgb{0, 158, 115}},
      {Coupling::SimplexPlus, "simrf-plus", "SimRF+",
       "simplex blocks re-arranged by the norms: each ω points away from the sum of the others "
       "(SimRF eq. 17; Monte Carlo only)",
       Rgb{204, 121, 167}},
      {Coupling::OrthogonalFast, "orf-fast", "ORF (fast)",
       "orthogonal blocks from the structured product H D₃ H D₂ H D₁, d padded to a power of two "
       "(Monte Carlo only)",
       Rgb{230, 159, 0}},
      {Coupling::SimplexFast, "simrf-fast", "SimRF (fast)",
       "simplex blocks rotated by H D₃ H D₂ H D₁ instead of a Haar matrix (Monte Carlo only)",
       Rgb{120, 94, 240}},
      {Coupling::QmcSobol, "qmc-sobol", "QMC (Sobol)",
       "randomised quasi-Monte Carlo: the first M Sobol points (Boost.Random), digitally shifted "
       "by random bits per estimate, mapped to N(0, I) by Φ⁻¹ (Avron et al. 2016; Monte Carlo "
       "only)",
       Rgb{170, 110, 40}},
      {Coupling::QmcHalton, "qmc-halton", "QMC (Halton)",
       "randomised quasi-Monte Carlo: the first M Halton points (bases the first d primes), "
       "shifted by a uniform vector mod 1 per estimate, mapped to N(0, I) by Φ⁻¹ (Avron et al. "
       "2016; Monte Carlo only)",
       Rgb{110, 150, 40}},
      {Coupling::QmcSobolOwen, "qmc-sobol-owen", "QMC (Sobol, Owen)",
       "randomised quasi-Monte Carlo: the first M Sobol points under Owen's nested uniform "
       "scrambling (a random flip per node of each coordinate's binary digit tree, from Philox) "
       "per estimate, mapped to N(0, I) by Φ⁻¹ (Owen 1995; Monte Carlo only)",
       Rgb{200, 80, 80}},
      {Coupling::OrthogonalFixedNorm, "orf-fixed-norm", "ORF (fixed norm)",
       "orthogonal blocks of d directions, every norm √d instead of χ_d: ω uniform on the sphere "
       "of radius √d, so the estimate's mean is a Bessel kernel, not the Gaussian — biased "
       "(Demni & Kadri 2024)",
       Rgb{90, 90, 160}},
      {Coupling::OrthogonalNormCoupled, "orf-norm-coupled", "ORF (norm-coupled)",
       "orthogonal blocks whose directions are paired (1, 2), (3, 4), …, the χ_d norms of a pair "
       "antithetic: r₂ = F⁻¹(1 - F(r₁)), one uniform per pair (Reid et al. 2025, pairwise norm "
       "coupling)",
       Rgb{150, 60, 20}},
  };
  return couplings;
}

const CouplingInfo& couplingInfo(Coupling coupling) {
  const auto& couplings = allCouplings();
  const auto index = static_cast<std::size_t>(coupling);
  assert(index < couplings.size() && couplings[index].coupling == coupling);
  return couplings[index];
}

const std::string& couplingId(Coupling coupling) {
  return couplingInfo(coupling).id;
}

const std::string& couplingName(Coupling coupling) {
  return couplingInfo(coupling).name;
}

const CouplingInfo* findCoupling(std::string_view id) {
  for (const auto& coupling : allCouplings())
    if (coupling.id == id) return &coupling;
  return nullptr;
}

Coupling parseCoupling(std::string_view id, const std::string& parameter) {
  if (const CouplingInfo* found = findCoupling(id)) return found->coupling;
  throw InvalidParameter(parameter, "unknown coupling '" + std::string(id) + "'");
}

std::vector<ParameterChoice> couplingChoices() {
  std::vector<ParameterChoice> choices;
  for (const auto& c : allCouplings())
    choices.push_back({c.id, c.name});
  return choices;
}

bool isOrthogonalBlock(Coupling coupling) {
  return coupling == Coupling::Orthogonal || coupling == Coupling::OrthogonalFast ||
         coupling == Coupling::OrthogonalFixedNorm || coupling == Coupling::OrthogonalNormCoupled;
}

bool hasFixedNorms(Coupling coupling) {
  return coupling == Coupling::OrthogonalFixedNorm;
}

bool isSimplexBlock(Coupling coupling) {
  return coupling == Coupling::Simplex || coupling == Coupling::SimplexPlus ||
         coupling == Coupling::SimplexFast;
}

bool isStructured(Coupling coupling) {
  return coupling == Coupling::OrthogonalFast || coupling == Coupling::SimplexFast;
}

bool isQuasiMonteCarlo(Coupling coupling) {
  return coupling == Coupling::QmcSobol || coupling == Coupling::QmcHalton ||
         coupling == Coupling::QmcSobolOwen;
}

bool usesSobolPoints(Coupling coupling) {
  return coupling == Coupling::QmcSobol || coupling == Coupling::QmcSobolOwen;
}

int maxCouplingDimension(Coupling coupling) {
  return usesSobolPoints(coupling) ? kMaxSobolDimension : std::numeric_limits<int>::max();
}

std::string couplingDimensionProblem(Coupling coupling, int d) {
  if (d < 1) return "the dimension must be at least 1";
  if (isSimplexBlock(coupling) && d < 2)
    return couplingId(coupling) + " needs d >= 2 (a simplex block in d = 1 has no directions)";
  if (d > maxCouplingDimension(coupling))
    return couplingId(coupling) + " supports dimensions up to " +
           std::to_string(maxCouplingDimension(coupling));
  return {};
}

int frequencyDimension(Coupling coupling, int d) {
  if (!isStructured(coupling) || d < 1) return d;
  int n = 1;
  while (n < d)
    n *= 2;
  return n;
}

}  // namespace rfscope
