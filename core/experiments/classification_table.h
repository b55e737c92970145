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
#include "core/experiments/typed_experiment.h"

namespace rfscope {

class Mechanism;

struct ClassificationTableSettings : ClassifierChoices {  // σ: none is searched per dataset
  std::vector<std::string> datasets;                      // UCI ids, in the papers' order
  std::int64_t features = 128;                            // M, or m/d with perDimension
};

class ClassificationTable final : public TypedExperiment<ClassificationTableSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ClassificationTableSettings parse(const ParameterSet& params) const override;

 protected:
  RunResult runWith(const ClassificationTableSettings& settings,
                    RunContext& context) const override;
};

// The value of the `dataset` column for the average row.
inline constexpr double kAverageRowDataset = 0;

}  // namespace rfscope
