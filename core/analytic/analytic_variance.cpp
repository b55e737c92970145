#include "core/analytic/analytic_variance.h"

#include <cmath>

namespace rfscope {

AnalyticAnswer evaluateAnalytic(const AnalyticRequest& request, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y) {
  AnalyticAnswer answer;
  const PairInput pair(x, y);
  answer.logKernelValue = logKernelValue(request.kernel, pair.geometry);
  if (request.coupling != "iid") {
    answer.unavailableReason = "no closed form for mechanism '" + request.mechanism->info().id +
                               "' with coupling '" + request.coupling + "'";
    return answer;
  }
  const VarianceResult one = request.mechanism->logVariance(pair, request.parameters);
  answer.parametersUsed = one.parametersUsed;
  if (!one.available) {
    answer.unavailableReason = one.unavailableReason;
    return answer;
  }
  answer.available = true;
  // M i.i.d. features: the estimator is their mean, so the variance divides by M.
  answer.logVariance = one.logVariance + logVarianceScale(request.kernel, pair.geometry) -
                       std::log(static_cast<double>(request.features));
  return answer;
}

}  // namespace rfscope
