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
  // Measured over the redraws, one value per M measured so far: the output error's mean, std and
  // median, the rms linearised error, the means of the attention-matrix error, the worst row's
  // total variation and the fraction of rows with D̂ ≤ 0, and the rms unnormalised error.
  std::vector<double> outputMean, outputStd, outputMedian, linearised, attention, worstVariation,
      nonPositive, unnormalised;
};

struct AttentionErrorResult {
  std::int64_t length = 0, dimension = 0;  // of the problem as loaded (files, datasets)
  std::vector<double> features;            // M, one per row measured so far
  std::vector<AttentionEstimatorErrors> estimators;
};

// "Bidirectional attention error, L = 64, d = 16, input scale 0.5".
std::string attentionProblemTitle(const AttentionErrorSettings& settings,
                                  const AttentionErrorResult& result);

// The notes on the estimators' numbers, one line per reason with every estimator it applies to
// ("PosRF, ORF; OPRF, ORF: no delta-method prediction — …"): where the closed forms predict
// nothing or only part, features of both signs (the mean error does not converge), and M up to
// which the delta method is out of its range.
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
