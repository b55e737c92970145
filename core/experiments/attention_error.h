#pragma once
// How well random-feature (linear, Performer) attention approximates exact softmax attention,
// against the number of features M: measured over redraws of the features, beside the error the
// closed forms predict (attention_prediction.h), for chosen mechanisms × couplings.

#include <cstdint>
#include <string>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/computed_experiment.h"
#include "core/experiments/estimator_series.h"

namespace rfscope {

class Mechanism;

struct AttentionErrorSettings {
  int dimension = 16;
  std::int64_t length = 64;  // L: queries = keys = values
  std::int64_t valueDimension = 4;
  double inputScale = 0.5;  // std of the entries of q and k (before the d^{-1/4} scaling)
  bool causal = false;
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  std::vector<std::int64_t> features;  // the M grid, increasing
  std::size_t redraws = 20;
  std::int64_t errorRows = 64;       // rows of the attention-matrix metrics
  std::int64_t predictionRows = 32;  // rows of the delta-method prediction
  double targetError = 0.1;          // for "features needed"
  // Synthetic Gaussian rows, or rows of real data (attention_dataset_rows.h: a UCI dataset, whose
  // number of features is then d, or MNIST patches), scaled by inputScale and d^{-1/4}.
  enum class Inputs { Synthetic, Uci, MnistPatches };
  Inputs inputs = Inputs::Synthetic;
  std::string dataset = "abalone";  // Uci
  // The user's arrays (.npy, rows = points; raw q and k, scaled by d^{-1/4} here); empty:
  // synthetic. Keys default to the queries, values to synthetic N(0, 1) entries.
  std::string queriesFile, keysFile, valuesFile;
  std::uint64_t seed = 1;
};

// One estimator's errors per M of the grid (index k).
struct AttentionEstimatorErrors {
  EstimatorSeries series;
  // Why the closed forms predict nothing or only part (empty: everything is predicted).
  std::vector<std::string> predictionGaps;
  // Predicted squared relative errors for every M of the grid, worked out before the Monte Carlo:
  // output and attention-matrix (delta method), unnormalised (exact), the normaliser's spread
  // Var D̂/D²; NaN where there is no closed form.
  std::vector<double> outputSquared, attentionSquared, unnormalisedSquared, spreadSquared;
  // The output error E‖Ô - O‖²/‖O‖² from one unit of features (output_error_prediction.h):
  // saturated for positive features, linearised for signed ones; its quadrature's standard error
  // and the normaliser's spread Var(Σ s)/M² from the same units; empty where there is none.
  std::vector<double> predictedSquared, predictedStandardError, unitSpreadSquared;
  bool predictionSaturated = false;
  double normaliserCoverage = 1;
  std::int64_t predictionUnitSize = 1;
  // Measured over the redraws, one value per M measured so far: the output error's mean, std,
  // median, rms and the rms's standard error, the rms linearised error, the means of the
  // attention-matrix error, the worst row's total variation and the fraction of rows with D̂ ≤ 0,
  // and the rms unnormalised error.
  std::vector<double> outputMean, outputStd, outputMedian, outputRms, outputRmsError, linearised,
      attention, worstVariation, nonPositive, unnormalised;
};

struct AttentionErrorResult {
  std::int64_t length = 0, dimension = 0;  // of the problem as loaded (files, datasets)
  std::vector<double> features;            // M, one per row measured so far
  std::vector<AttentionEstimatorErrors> estimators;
};

// "Bidirectional attention error, L = 64, d = 16, input scale 0.5".
std::string attentionProblemTitle(const AttentionErrorSettings& settings,
                                  const AttentionErrorResult& result);

// Whether the output-error prediction at the grid's M number k (= features) is drawn. Positive
// features: where the one-unit spread of the normaliser is at most 0.4 or M fits one unit (then
// the form is exact), the quadrature's relative standard error is at most 3% and its units carry
// 95% of the normaliser's mean — beyond, the errors are heavy-tailed and the saturated form
// under-predicts (no finite set of redraws measures them stably either). Signed features: where
// the spread is at most 0.2 (beyond, D̂ comes near 0 and the linearisation stops describing ô).
bool predictionShown(const AttentionEstimatorErrors& e, std::size_t k, std::int64_t features);
// The quadrature's relative standard error of the predicted (rms) error at M number k.
double predictionRelativeError(const AttentionEstimatorErrors& e, std::size_t k);

// The M at which the predicted (rms) error falls to `target`: log-log between the grid's M, beyond
// the largest ∝ 1/M; NaN where the prediction there is not drawn (predictionShown) or missing.
double predictedFeaturesFor(const AttentionEstimatorErrors& e,
                            const std::vector<std::int64_t>& features, double target);

// The notes on the estimators' numbers, one line per reason with every estimator it applies to
// ("PosRF, ORF; OPRF, ORF: no delta-method column … — …"): where nothing or only part is
// predicted, features of both signs (the mean error does not converge), and the M at which the
// prediction is not drawn, with the reason.
std::vector<std::string> attentionNotes(const std::vector<AttentionEstimatorErrors>& estimators,
                                        const std::vector<std::int64_t>& features);

class AttentionError final
    : public ComputedExperiment<AttentionErrorSettings, AttentionErrorResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  // Each cell holds the queries' and keys' features (L × width, with their projections and the
  // keys at one scale: about 4 such matrices, measured 3.6), one cell per thread at a time.
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  AttentionErrorSettings parse(const ParameterSet& params) const override;
  Computed<AttentionErrorResult> compute(
      const AttentionErrorSettings& settings,
      ResultContext<AttentionErrorResult>& context) const override;
  Presentation present(const AttentionErrorSettings& settings,
                       const AttentionErrorResult& result) const override;
};

}  // namespace rfscope
