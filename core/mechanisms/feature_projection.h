#pragma once
// What one random frequency ω contributes to the estimate at a pair (x, y) for every continuous
// mechanism: its projections on p = x + y and q = x - y, |ω|², and the feature's random phase
// where the mechanism draws one.

namespace rfscope {

struct FeatureProjection {
  double onSum = 0;         // ωᵀ(x + y)
  double onDifference = 0;  // ωᵀ(x - y)
  double normSquared = 0;   // |ω|²
  double phase = 0;         // b ~ U[0, 2π) of random-phase features (ExponentialFeatureModel)
};

}  // namespace rfscope
