#include "core/experiments/experiment.h"

namespace rfscope {

std::vector<ParameterError> Experiment::validate(const ParameterSet& params) const {
  auto errors = validateParameters(parameters(), params);
  if (errors.empty()) errors = crossValidate(params);
  if (errors.empty())
    if (const auto estimate = memoryEstimate(params))
      if (auto problem = memoryProblem(*estimate, memoryBudget())) errors.push_back(*problem);
  return errors;
}

ParameterSet Experiment::testParameters(TestLoad) const {
  return defaultsWith({});
}

ParameterSet Experiment::defaultsWith(
    std::initializer_list<std::pair<std::string, ParameterValue>> values) const {
  ParameterSet params = ParameterSet::defaults(parameters());
  for (const auto& [key, value] : values)
    params.set(key, value);
  return params;
}

}  // namespace rfscope
