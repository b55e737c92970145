#pragma once
// The exact variance (= MSE: every estimator is unbiased) of an M-feature estimator of a kernel at
// one pair (x, y), in the log domain, for a mechanism, a coupling and parameters.

#include <cstdint>
#include <string>

#include <Eigen/Core>

#include "core/analytic/kernel.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

struct AnalyticRequest {
  const Mechanism* mechanism = nullptr;
  Kernel kernel = Kernel::Gaussian;
  std::string coupling = "iid";
  std::int64_t features = 1;  // M >= 1
  ParameterSet parameters;    // validated against mechanism->parameters()
};

struct AnalyticAnswer {
  bool available = false;
  std::string unavailableReason;
  double logKernelValue = 0;
  double logVariance = kNegativeInfinity;
  ParameterSet parametersUsed;
};

AnalyticAnswer evaluateAnalytic(const AnalyticRequest& request, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y);

}  // namespace rfscope
