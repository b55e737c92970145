#include "core/analytic/hrf_relative_error.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

// log(e^{2a}(1 - e^{-4a})) for a = r² sin²(θ/2) >= 0.
double logBaseError(double a) {
  return a > 0 ? 2 * a + std::log(-std::expm1(-4 * a)) : -INFINITY;
}

}  // namespace

double logTrigRelativeError(double theta, double r, std::int64_t m) {
  const double h = std::sin(theta / 2);
  return logBaseError(r * r * h * h) - 0.5 * std::log(2.0 * static_cast<double>(m));
}

double logPosHypRelativeError(double theta, double r, std::int64_t m) {
  // sin²((π - θ)/2) = cos²(θ/2), evaluated directly (no π - θ rounding near θ = π).
  const double c = std::cos(theta / 2);
  return logBaseError(r * r * c * c) - 0.5 * std::log(2.0 * static_cast<double>(m));
}

double logMaxBaseRelativeError(double r, std::int64_t m) {
  return logBaseError(r * r) - 0.5 * std::log(2.0 * static_cast<double>(m));
}

double logAngularHybridBound(double r, std::int64_t m, std::int64_t n) {
  if (!(r >= 1)) return std::numeric_limits<double>::quiet_NaN();
  const double nn = static_cast<double>(n), pi = std::numbers::pi;
  return logMaxBaseRelativeError(r, m) - std::log(r) +
         0.5 * std::log(1 / pi - 1 / (nn * pi) + 1 / (nn * std::sqrt(pi)));
}

double logAngularHybridRelativeError(double theta, double r, std::int64_t m, std::int64_t n) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(2), y(2);
  x[0] = r;
  y << r * std::cos(theta), r * std::sin(theta);
  EstimatorSpec request;
  request.mechanism = findMechanism("hybrid-angular");
  request.kernel = Kernel::Softmax;
  request.features = m;
  request.parameters.set("n", n);
  request.parameters.set("shared", false);
  const AnalyticAnswer answer = evaluateAnalytic(request, x, y);
  if (!answer.variance) return std::numeric_limits<double>::quiet_NaN();  // r = 0: θ undefined
  return 0.5 * answer.variance->logVariance - answer.logKernelValue;
}

}  // namespace rfscope
