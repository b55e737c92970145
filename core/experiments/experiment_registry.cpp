#include "core/experiments/experiment_registry.h"

#include "core/experiments/variance_ratio_vs_norm.h"
#include "core/experiments/variance_vs_sigma.h"

namespace rfscope {

const std::vector<const Experiment*>& allExperiments() {
  static const VarianceVsSigma varianceVsSigma;
  static const VarianceRatioVsNorm varianceRatioVsNorm;
  static const std::vector<const Experiment*> experiments{&varianceVsSigma, &varianceRatioVsNorm};
  return experiments;
}

const Experiment* findExperiment(std::string_view id) {
  for (const Experiment* experiment : allExperiments())
    if (experiment->info().id == id) return experiment;
  return nullptr;
}

}  // namespace rfscope
