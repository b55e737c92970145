#pragma once
// The fast path of one trial as plain data: which of the fast samplers (fast_trial.h) runs, and
// its coefficients. Trivially copyable, so a device backend copies it to the GPU as it is; the
// CPU backend and the CUDA kernels both call runFastTrial, so they run the very same code.

#include <cstdint>
#include <type_traits>

#include "core/montecarlo/fast_trial.h"

namespace rfscope {

enum class FastTrialKind {
  Iid,         // i.i.d. features: O(1) each
  Block,       // ORF / SimRF blocks from a random 2-frame: O(d) per block
  Structured,  // H D₃ H D₂ H D₁ blocks (orf-fast, simrf-fast), d padded to a power of two
  Hybrid       // the angular and Gaussian hybrids (i.i.d. features)
};

struct FastTrialPlan {
  FastTrialKind kind = FastTrialKind::Iid;
  BlockGeometry geometry = BlockGeometry::Orthogonal;  // Block and Structured
  HybridSpec hybrid;  // hybrid.base is the spec of every kind; the rest only for Hybrid

  RFSCOPE_HOST_DEVICE const FastTrialSpec& spec() const { return hybrid.base; }
};

// Doubles of per-trial scratch that runFastTrial needs.
RFSCOPE_HOST_DEVICE inline std::int64_t fastTrialScratchSize(const FastTrialPlan& plan) {
  const std::int64_t d = plan.spec().dimension;
  switch (plan.kind) {
    case FastTrialKind::Block:
      return 2 * d;
    case FastTrialKind::Structured:
      return 5 * d;
    default:
      return 0;
  }
}

// About how many random draws one trial makes (normals, uniforms, 64-bit words; a χ² variate
// counts 2: Marsaglia–Tsang accepts its first normal-uniform try ≥ 98% of the time for d ≥ 2).
// The throughput bound of the device backends draws this many normals per trial.
RFSCOPE_HOST_DEVICE inline std::int64_t fastTrialRandomDraws(const FastTrialPlan& plan) {
  const FastTrialSpec& s = plan.spec();
  const std::int64_t d = s.dimension;
  const std::int64_t axes = (d >= 2 && usesSecondAxis(s)) ? 2 : 1;
  const std::int64_t blocks = (s.features + d - 1) / d;
  const std::int64_t phases = s.model.randomPhase ? s.features : 0;
  switch (plan.kind) {
    case FastTrialKind::Iid:
      return s.features * (axes + (s.model.needsNormSquared() ? 2 : 0)) + phases;
    case FastTrialKind::Block:
      return blocks * axes * d +
             (plan.geometry == BlockGeometry::OrthogonalFixedNorm ? 0 : 2 * s.features) + phases;
    case FastTrialKind::Structured:
      return blocks * ((3 * d + 63) / 64) + 2 * s.features + phases;
    case FastTrialKind::Hybrid: {
      const std::int64_t tauDraws =
          plan.hybrid.coefficient == HybridCoefficient::Gaussian ? 1 : axes;
      return s.features * (plan.hybrid.taus * tauDraws + (plan.hybrid.shared ? 1 : 2) * axes);
    }
  }
  return 0;
}

// One trial's M-feature estimate, for a plan of kind Kind (a GPU kernel per kind keeps each one's
// registers to what that kind needs). axis1/axis2: the pair's frame vectors (Structured only,
// length d, read-only and shared by all trials); scratch: fastTrialScratchSize(plan) doubles.
template <FastTrialKind Kind, class Array>
RFSCOPE_HOST_DEVICE inline SignedLog runFastTrialOfKind(const FastTrialPlan& plan,
                                                        const double* axis1, const double* axis2,
                                                        std::uint64_t trial, Array scratch) {
  if constexpr (Kind == FastTrialKind::Iid) {
    return fastIidTrial(plan.spec(), trial);
  } else if constexpr (Kind == FastTrialKind::Block) {
    return fastBlockTrial(plan.spec(), plan.geometry, trial, scratch);
  } else if constexpr (Kind == FastTrialKind::Structured) {
    return fastStructuredTrial(plan.spec(), plan.geometry, axis1, axis2, trial, scratch);
  } else {
    return fastHybridTrial(plan.hybrid, trial);
  }
}

// Calls f(std::integral_constant<FastTrialKind, kind>{}): code templated on the kind (one GPU
// kernel per kind, say), chosen at run time in this one place.
template <class F>
RFSCOPE_HOST_DEVICE inline decltype(auto) withFastTrialKind(FastTrialKind kind, F&& f) {
  using Kind = FastTrialKind;
  switch (kind) {
    case Kind::Iid:
      return f(std::integral_constant<Kind, Kind::Iid>{});
    case Kind::Block:
      return f(std::integral_constant<Kind, Kind::Block>{});
    case Kind::Structured:
      return f(std::integral_constant<Kind, Kind::Structured>{});
    case Kind::Hybrid:
      break;
  }
  return f(std::integral_constant<Kind, Kind::Hybrid>{});
}

// The same for a plan of any kind.
template <class Array>
RFSCOPE_HOST_DEVICE inline SignedLog runFastTrial(const FastTrialPlan& plan, const double* axis1,
                                                  const double* axis2, std::uint64_t trial,
                                                  Array scratch) {
  return withFastTrialKind(plan.kind, [&](auto kind) {
    return runFastTrialOfKind<decltype(kind)::value>(plan, axis1, axis2, trial, scratch);
  });
}

}  // namespace rfscope
