#pragma once
// The feature map of a dense-exponential random feature (dense_exponential.h) in canonical form:
// for ω from the coupling, f⁽¹⁾(ω, x) = exp(log D + Σ a_l ω_l² + Σ b_l ω_l x̃_l - ½(|x|² + |x̃|²)),
// x̃ = T1x (queries), f⁽²⁾ the same with T2 (keys); one column per ω, symmetric when T1 = T2.
// Inputs are padded with zeros to the frequency dimension of structured couplings, the parameters
// as paddedDerfParameters does, which is what the Monte Carlo trial of a padded pair computes.

#include <memory>

#include "core/math/outcome.h"
#include "core/mechanisms/dense_exponential.h"
#include "core/mechanisms/feature_map.h"

namespace rfscope {

// One draw of the features; unavailable when some 1 - 4a_l <= 0 (the estimator is not defined).
Outcome<std::unique_ptr<FeatureMap>> drawDenseExponentialFeatureMap(const DerfParameters& p,
                                                                    const FeatureMapSpec& spec,
                                                                    TrialStream& stream);

}  // namespace rfscope
