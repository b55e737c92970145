#pragma once
// How the M random frequencies ω_1..ω_M of an estimator are drawn jointly: the one place that
// names couplings. Everything else holds a Coupling; ids appear only at the edges (parameters,
// files, the command line) and go through parseCoupling / couplingId.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/math/rgb.h"
#include "core/params/parameter_spec.h"

namespace rfscope {

enum class Coupling {
  Iid,             // "iid": independent ω ~ N(0, I)
  Orthogonal,      // "orf": orthogonal blocks of d directions with χ_d norms
  Simplex,         // "simrf": simplex blocks
  SimplexPlus,     // "simrf-plus": simplex blocks re-arranged by the norms (SimRF eq. 17)
  OrthogonalFast,  // "orf-fast": H D₃ H D₂ H D₁ blocks, d padded to a power of two
  SimplexFast,     // "simrf-fast": simplex blocks rotated by H D₃ H D₂ H D₁
  QmcSobol,        // "qmc-sobol": randomised (digitally shifted) Sobol points through Φ⁻¹
  QmcHalton,       // "qmc-halton": randomly shifted Halton points through Φ⁻¹
  QmcSobolOwen,    // "qmc-sobol-owen": Sobol points under Owen's nested scrambling through Φ⁻¹
  OrthogonalFixedNorm,   // "orf-fixed-norm": orthogonal blocks of d directions, every norm √d
  OrthogonalNormCoupled  // "orf-norm-coupled": orthogonal blocks, the χ_d norms of pairs antithetic
};

struct CouplingInfo {
  Coupling coupling;
  std::string id;             // "iid", "orf", ...
  std::string name;           // display name
  std::string description;    // one line
  std::optional<Rgb> colour;  // its series colour where it has a fixed one
};

// Every coupling, in display order.
const std::vector<CouplingInfo>& allCouplings();
const CouplingInfo& couplingInfo(Coupling coupling);
const std::string& couplingId(Coupling coupling);
const std::string& couplingName(Coupling coupling);

// The coupling with this id, or nullptr: for lookups that tolerate unknown ids (e.g. colours).
const CouplingInfo* findCoupling(std::string_view id);
// The coupling with this id; throws InvalidParameter naming `parameter` for an unknown id.
Coupling parseCoupling(std::string_view id, const std::string& parameter = "coupling");

// Every coupling as choices of a parameter spec.
std::vector<ParameterChoice> couplingChoices();

// Blocks of d mutually orthogonal directions (orf, orf-fast, orf-fixed-norm, orf-norm-coupled).
bool isOrthogonalBlock(Coupling coupling);
// Every frequency of norm exactly √d instead of χ_d (orf-fixed-norm): the ω are uniform on the
// sphere of radius √d, not Gaussian, so the estimators are biased (fixed_norm_bessel.h).
bool hasFixedNorms(Coupling coupling);
// Blocks of d simplex directions (simrf, simrf-plus, simrf-fast); they need d >= 2.
bool isSimplexBlock(Coupling coupling);
// Built from the structured rotation H D₃ H D₂ H D₁ (orf-fast, simrf-fast): the frequencies live
// in R^n, n = d padded to a power of two (inputs are padded with zeros).
bool isStructured(Coupling coupling);
// Randomised quasi-Monte Carlo frequencies (qmc-sobol, qmc-halton, qmc-sobol-owen): the first M
// points of a low-discrepancy sequence in [0, 1)^d, randomised per estimate, mapped to N(0, I)
// coordinate-wise.
bool isQuasiMonteCarlo(Coupling coupling);
// Built on the Sobol points (qmc-sobol, qmc-sobol-owen).
bool usesSobolPoints(Coupling coupling);
inline constexpr int kMaxSobolDimension = 3667;
// The largest input dimension a coupling supports (the Sobol direction numbers stop at 3667).
int maxCouplingDimension(Coupling coupling);
// The dimension of the frequencies for inputs of dimension d: n for structured couplings, else d.
int frequencyDimension(Coupling coupling, int d);
// Why the coupling cannot draw frequencies for inputs of dimension d ("" where it can): simplex
// blocks need d >= 2 (their directions divide by d - 1), Sobol points stop at 3667 dimensions.
// Every place that draws frequencies checks it, so that no estimate is silently NaN.
std::string couplingDimensionProblem(Coupling coupling, int d);

}  // namespace rfscope
