#pragma once
// An estimator: a mechanism with its parameters, the kernel it estimates, the coupling of its
// frequencies and their number M. The analytic layer evaluates one at a pair, the Monte Carlo
// engine samples one (MonteCarloRequest extends it with the pair and the sampling settings), and
// the command line parses one — the same fields, declared here once.

#include <cstdint>

#include "core/couplings/coupling.h"
#include "core/math/kernel.h"
#include "core/params/parameter_set.h"

namespace rfscope {

class Mechanism;

struct EstimatorSpec {
  const Mechanism* mechanism = nullptr;
  Kernel kernel = Kernel::Gaussian;
  Coupling coupling = Coupling::Iid;
  std::int64_t features = 1;  // M >= 1
  ParameterSet parameters;    // the mechanism's, validated against its specs

  // The same estimator with other parameters (e.g. the ones a Monte Carlo run resolved).
  EstimatorSpec withParameters(ParameterSet resolved) const {
    EstimatorSpec spec = *this;
    spec.parameters = std::move(resolved);
    return spec;
  }
};

}  // namespace rfscope
