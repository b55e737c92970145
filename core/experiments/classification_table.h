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
#include "core/experiments/typed_experiment.h"

namespace rfscope {

class Mechanism;

struct ClassificationTableSettings {
  std::vector<std::string> datasets;  // UCI ids, in the papers' order
  double trainFraction = 0.9;
  std::optional<double> sigma;  // none: searched per dataset
  std::int64_t features = 128;
  bool perDimension = false;  // features is m/d
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  std::size_t repeats = 10;
  std::uint64_t seed = 1;
};

class ClassificationTable final : public TypedExperiment<ClassificationTableSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ClassificationTableSettings parse(const ParameterSet& params) const override;

 protected:
  RunResult runWith(const ClassificationTableSettings& settings,
                    RunContext& context) const override;
};

// The value of the `dataset` column for the average row.
inline constexpr double kAverageRowDataset = 0;

}  // namespace rfscope
