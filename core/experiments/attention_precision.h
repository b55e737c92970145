#pragma once
// Reduced precision in random-feature attention: the feature maps and the attention computed in
// float16, bfloat16, float32 (emulated rounding) and float64, with and without the stabilisers
// implementations use (core/attention/precision_attention.h), for PosRF, its hyperbolic variant,
// OPRF and TrigRF under a coupling. Against the input scale, the sequence length L or the
// Performer ε: the fraction of rows whose normaliser D̂ overflowed (inf or NaN), is zero or
// subnormal, whose output is not finite, the features that underflowed to 0 or overflowed, and
// the relative output error against exact float64 attention — of the estimator (mean over
// redraws, finite rows), of the rounding alone (against the same draw in float64), and split
// into bias ‖E Ô - O‖ and spread over the redraws.

#include <cstdint>
#include <string>
#include <vector>

#include "core/attention/precision_attention.h"
#include "core/couplings/coupling.h"
#include "core/experiments/computed_experiment.h"
#include "core/experiments/estimator_series.h"

namespace rfscope {

class Mechanism;

struct AttentionPrecisionSettings {
  enum class Sweep { InputScale, SequenceLength, Eps };
  int dimension = 16;
  std::int64_t length = 256;  // L (the largest L of a length sweep)
  std::int64_t valueDimension = 8;
  double inputScale = 1;  // std of the raw entries of q and k
  bool causal = false;
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  std::int64_t features = 64;  // M
  std::vector<Precision> precisions;
  std::vector<Stabiliser> stabilisers;
  double eps = 1e-4;
  Sweep sweep = Sweep::InputScale;
  // What the figure plots (the table has every column either way): the output error of the rows
  // that stay finite, or the fraction of rows whose output is not finite.
  enum class Plotted { Error, BrokenRows };
  Plotted plotted = Plotted::Error;
  std::vector<double> grid;  // the swept values, increasing
  std::size_t redraws = 8;
  std::uint64_t seed = 1;
};

// One (estimator, precision, stabiliser), per swept value (index k).
struct PrecisionSeries {
  std::size_t estimator = 0;  // into AttentionPrecisionResult::estimators
  Precision precision = Precision::Float32;
  Stabiliser stabiliser = Stabiliser::None;
  // Means over the redraws: relative output error over the rows with a finite output, the
  // rounding error ‖Ô_p - Ô_64‖/‖O‖ (the same draw in float64 with the same stabiliser), and the
  // fractions of rows (D̂ inf or NaN, D̂ = 0, D̂ subnormal, output not finite) and of features
  // (0 where float64's is not, inf or NaN); `inverseOverflow`: rows whose D̂ is finite and not 0
  // but 1/D̂ overflows (D̂ < 1/65504 in float16).
  std::vector<double> error, rounding, overflow, zero, subnormal, inverseOverflow, nonFinite,
      featureUnderflow, featureOverflow;
  // Over the rows finite in every redraw: the bias ‖mean Ô - O‖/‖O‖ (its square corrected for
  // the redraws' spread, S²/R), and the spread S/‖O‖ (S² the redraws' sample variance); NaN
  // where no row is finite in every redraw.
  std::vector<double> bias, spread;
};

struct AttentionPrecisionResult {
  std::vector<double> grid;  // the swept values measured so far
  std::vector<EstimatorSeries> estimators;
  std::vector<PrecisionSeries> series;  // estimators × precisions × stabilisers, in that order
};

class AttentionPrecision final
    : public ComputedExperiment<AttentionPrecisionSettings, AttentionPrecisionResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  // A row holds every redraw's output (L × d_v) per estimator, precision and stabiliser until it
  // is committed, and each running cell about six feature matrices (L × width).
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  AttentionPrecisionSettings parse(const ParameterSet& params) const override;
  Computed<AttentionPrecisionResult> compute(
      const AttentionPrecisionSettings& settings,
      ResultContext<AttentionPrecisionResult>& context) const override;
  Presentation present(const AttentionPrecisionSettings& settings,
                       const AttentionPrecisionResult& result) const override;
};

}  // namespace rfscope
