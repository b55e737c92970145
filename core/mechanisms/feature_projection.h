#pragma once
// What one random frequency ω contributes to the estimate at a pair (x, y) for every continuous
// mechanism: its projections on p = x + y and q = x - y, and |ω|².

namespace rfscope {

struct FeatureProjection {
  double onSum = 0;         // ωᵀ(x + y)
  double onDifference = 0;  // ωᵀ(x - y)
  double normSquared = 0;   // |ω|²
};

}  // namespace rfscope
