#pragma once
// SimRF Fig. 7: squared Frobenius error Σ_ij (K_ij - K̂_ij)² of the Gaussian Gram matrix of N
// points estimated with M positive random features, against M, per coupling (mean over
// repetitions with the standard deviation of that mean, as in the paper's shading) — for every
// mechanism with positive features (PosRF by default), through their feature maps.

#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/computed_experiment.h"
#include "core/experiments/estimator_series.h"

namespace rfscope {

class Mechanism;

struct GramFrobeniusSettings {
  int dimension = 64;
  RegimeSettings regime;
  double sigma = 0.1;
  std::size_t points = 64;
  std::vector<const Mechanism*> mechanisms;  // with positive features
  std::vector<Coupling> couplings;
  std::int64_t featuresMin = 8, featuresMax = 256;
  std::vector<std::int64_t> features;  // the M grid, increasing
  std::size_t repetitions = 50;
  std::uint64_t seed = 1;
};

// One estimator's squared Frobenius errors, one value per M: the mean over the repetitions, their
// std and the standard error of the mean.
struct GramEstimatorErrors {
  EstimatorSeries series;
  std::string key;  // its columns': the coupling's id alone when there is one mechanism
  std::vector<double> mean, spread, standardError;
};

struct GramFrobeniusResult {
  std::vector<double> features;  // M, one per row measured so far
  std::vector<GramEstimatorErrors> estimators;
};

class GramFrobenius final : public ComputedExperiment<GramFrobeniusSettings, GramFrobeniusResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  // Each cell holds the points' features (N × width with their projections: measured 3.2 such
  // matrices) and an N × N Gram estimate, one cell per thread at a time.
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  GramFrobeniusSettings parse(const ParameterSet& params) const override;
  Computed<GramFrobeniusResult> compute(const GramFrobeniusSettings& settings,
                                        ResultContext<GramFrobeniusResult>& context) const override;
  Presentation present(const GramFrobeniusSettings& settings,
                       const GramFrobeniusResult& result) const override;
};

}  // namespace rfscope
