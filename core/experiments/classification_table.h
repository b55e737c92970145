#pragma once
// CRT Table 1 (and SimRF Table 2) as a figure: test accuracy of the random-feature Gaussian-kernel
// classifier on several datasets × mechanisms × couplings at one number of features M, with the
// exact kernel's accuracy, one row per dataset and a last row with the average over datasets.
// The protocol is the classification experiment's (classification.h), per dataset.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/classification.h"

namespace rfscope {

class Mechanism;

struct ClassificationTableSettings : ClassifierChoices {  // σ: none is searched per dataset
  std::vector<std::string> datasets;                      // UCI ids, in the papers' order
  std::int64_t features = 128;                            // M, or m/d with perDimension
};

// One row per dataset (its number, training points, M, σ and the exact kernel's accuracy; the
// estimators' accuracies), and once complete a last row with the average over the datasets.
struct ClassificationTableResult {
  std::vector<double> dataset, trainPoints, features, sigma, exact;
  std::vector<EstimatorAccuracy> estimators;
  std::vector<std::string> sigmaNotes;  // "<dataset>: <how its σ search ended>", in row order
  // Estimators no better than always predicting the most frequent class, and why (their K̂'s
  // mean squared error against the mean K²), in row order.
  std::vector<std::string> chanceNotes;
};

class ClassificationTable final
    : public ComputedExperiment<ClassificationTableSettings, ClassificationTableResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ClassificationTableSettings parse(const ParameterSet& params) const override;
  Computed<ClassificationTableResult> compute(
      const ClassificationTableSettings& settings,
      ResultContext<ClassificationTableResult>& context) const override;
  Presentation present(const ClassificationTableSettings& settings,
                       const ClassificationTableResult& result) const override;
};

// The value of the `dataset` column for the average row.
inline constexpr double kAverageRowDataset = 0;

}  // namespace rfscope
