#pragma once
// The randomness of random Maclaurin features (maclaurin.h) and their feature map. One feature
// draws, from its Philox stream and in this order, its degree N (Poisson(λ) or Geometric(1/2) on
// {0, 1, …}) and then N Rademacher vectors, each from ⌈d/64⌉ 64-bit words (bit l mod 64 of word
// ⌊l/64⌋ gives w_l = +1 when set): the Monte Carlo trial and the feature map draw the same numbers
// in the same order, so a map of a stream reproduces that stream's trial. Integers and bits only,
// so the draw is the same for every thread count and instruction set; each projection wᵀx is the
// sum of ±x_l over l = 0, 1, …, d-1 in order.
//
// Feature map: one column per feature (width M),
//   log|f(x)| = ½ log(a_N/p(N)) + Σ_j log|w_jᵀx| - |x|²/2 (+ |x|²/2 for softmax) - ½ log M,
//   sign f(x) = Π_j sign(w_jᵀx);  queries = keys.

#include <cstdint>
#include <memory>

#include "core/math/outcome.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/maclaurin.h"
#include "core/random/trial_stream.h"

namespace rfscope {

struct MaclaurinLaw {
  MaclaurinDegrees degrees = MaclaurinDegrees::Poisson;
  double lambda = 1;  // Poisson only
};

// The degree of the next feature.
std::int64_t drawMaclaurinDegree(const MaclaurinLaw& law, TrialStream& stream);
// log(a_n / p(n)): λ - n log λ (Poisson), (n + 1) log 2 - log n! (geometric).
double maclaurinLogWeight(const MaclaurinLaw& law, std::int64_t n);
// The next Rademacher vector into signs[0 … d-1] (±1).
void drawRademacher(TrialStream& stream, int dimension, double* signs);

// One draw of the feature map (the law resolved: λ > 0 for the Poisson law).
std::unique_ptr<FeatureMap> drawMaclaurinFeatureMap(const MaclaurinLaw& law,
                                                    const FeatureMapSpec& spec,
                                                    TrialStream& stream);

}  // namespace rfscope
