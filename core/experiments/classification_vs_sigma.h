#pragma once
// Kernel classification against the data scale σ: test accuracy of the random-feature classifier
// of each mechanism × coupling at one number of features, and of the exact kernel, for σ on a grid
// — where the classification table's searched σ sits, and where an estimator collapses (TrigRF at
// large σ: CRT Table 1's 15.2% on wifi).

#include <cstdint>
#include <vector>

#include "core/experiments/classification.h"

namespace rfscope {

struct ClassificationVsSigmaSettings : ClassifierChoices {  // its σ is unused: the grid's
  DatasetChoice data;
  std::int64_t features = 128;  // M, or m/d with perDimension
  std::vector<double> sigmas;
  double sigmaMin = 0.05, sigmaMax = 5;
};

// Per σ: M, the exact kernel's accuracy, and each estimator's accuracies.
struct ClassificationVsSigmaResult {
  std::string dataset;
  std::vector<double> sigma, features, exact;
  std::vector<EstimatorAccuracy> estimators;
};

class ClassificationVsSigma final
    : public ComputedExperiment<ClassificationVsSigmaSettings, ClassificationVsSigmaResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  ClassificationVsSigmaSettings parse(const ParameterSet& params) const override;
  Computed<ClassificationVsSigmaResult> compute(
      const ClassificationVsSigmaSettings& settings,
      ResultContext<ClassificationVsSigmaResult>& context) const override;
  Presentation present(const ClassificationVsSigmaSettings& settings,
                       const ClassificationVsSigmaResult& result) const override;
};

}  // namespace rfscope
