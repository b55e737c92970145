#pragma once
// The closed forms of positive random features under couplings (core/couplings), keyed by coupling
// id ("iid", "orf", "simrf") as experiments and their parameters name couplings.

#include <cstdint>
#include <string_view>

namespace rfscope {

// True if the coupling id has closed forms for positive features.
bool hasPositiveCouplingTheory(std::string_view coupling);

// log MSE (Gaussian kernel) of the M-feature PosRF estimator; NaN if unavailable.
double positiveCouplingLogMse(std::string_view coupling, int dimension, std::int64_t features,
                              double diffNormSquared, double u);

// log ρ (SimRF eq. 10) for u = |x + y|²; NaN if unavailable.
double positiveCouplingLogConformity(std::string_view coupling, int dimension, double u);

// log p(w_ij) of w_ij = |ω_i + ω_j| (SimRF eqs. 18, 20); NaN if unavailable.
double positiveCouplingLogPairNormDensity(std::string_view coupling, int dimension, double w);

// SimRF's small-v MSE prefactor relative to IID at M = d (SimRF Sec. 5.1).
double positiveSimplexSmallVPrefactor(int dimension);

}  // namespace rfscope
