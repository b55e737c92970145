#include "core/experiments/experiment.h"

namespace rfscope {

std::vector<ParameterError> Experiment::validate(const ParameterSet& params) const {
  auto errors = validateParameters(parameters(), params);
  if (errors.empty()) errors = crossValidate(params);
  return errors;
}

}  // namespace rfscope
