#pragma once
// The workload of the speed comparisons (NumPy on the CPU, PyTorch on a GPU): the positive-feature
// estimator's MSE at one pair, d = 64, M = 64. The pair is defined in closed form so that the
// Python references build the same one: x_i = 0.1 sin(i + 1), y_i = 0.1 cos(2i + 1), i = 0..63
// (|x + y| ≈ 1.1: a converging MSE).
#include <cmath>
#include <cstdint>
#include <string>

#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {

inline MonteCarloRequest comparisonRequest(const std::string& mechanism,
                                           const std::string& coupling, SamplingPath path,
                                           std::int64_t trials) {
  MonteCarloRequest request;
  request.mechanism = findMechanism(mechanism);
  request.coupling = parseCoupling(coupling);
  request.features = 64;
  request.trials = trials;
  request.path = path;
  request.storedSamples = 0;
  request.x.resize(64);
  request.y.resize(64);
  for (int i = 0; i < 64; ++i) {
    request.x[i] = 0.1 * std::sin(i + 1.0);
    request.y[i] = 0.1 * std::cos(2.0 * i + 1.0);
  }
  return request;
}

}  // namespace rfscope
