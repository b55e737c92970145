#pragma once
// How well random-feature (linear, Performer) attention approximates exact softmax attention,
// against the number of features M: measured over redraws of the features, beside the error the
// closed forms predict (attention_prediction.h), for chosen mechanisms × couplings.

#include <cstdint>
#include <string>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/typed_experiment.h"

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

class AttentionError final : public TypedExperiment<AttentionErrorSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  // Each cell holds the queries' and keys' features (L × width, with their projections and the
  // keys at one scale: about 4 such matrices, measured 3.6), one cell per thread at a time.
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  AttentionErrorSettings parse(const ParameterSet& params) const override;

 protected:
  RunResult runWith(const AttentionErrorSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
