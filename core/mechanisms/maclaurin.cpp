#include "core/mechanisms/maclaurin.h"

#include <algorithm>
#include <cmath>

#include "core/math/log_math.h"
#include "core/mechanisms/discrete_rf.h"

namespace rfscope {

MaclaurinPair maclaurinPair(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  // v = |x|²|y|² + s² - 2Σ x_l² y_l² cancels where x and y share one axis (v = 0 at d = 1): long
  // double keeps ~3 more digits of it, and rounding below 0 is clamped.
  long double xx = 0, yy = 0, xy = 0, diagonal = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const long double a = x[l], b = y[l];
    xx += a * a;
    yy += b * b;
    xy += a * b;
    diagonal += (a * b) * (a * b);
  }
  MaclaurinPair pair;
  pair.dot = static_cast<double>(xy);
  pair.spread = std::max(0.0, static_cast<double>(xx * yy + xy * xy - 2 * diagonal));
  pair.moment = static_cast<double>(xy * xy) + pair.spread;
  return pair;
}

double maclaurinLambdaStar(const MaclaurinPair& pair) {
  return std::sqrt(pair.moment);
}

double maclaurinOptimalExcess(const MaclaurinPair& pair) {
  const double root = std::sqrt(pair.moment);
  if (!(root > 0)) return 0;  // x or y is 0: N = 0 always, the estimate is exactly 1
  // λ* - s = v/(√c + s) for s > 0 (√c ≥ |s|), so g = ((λ* - s)² + v)/λ* never subtracts.
  const double gap = pair.dot > 0 ? pair.spread / (root + pair.dot) : root - pair.dot;
  return (gap * gap + pair.spread) / root;
}

double maclaurinExcess(MaclaurinDegrees degrees, double lambda, const MaclaurinPair& pair) {
  if (degrees == MaclaurinDegrees::Geometric)
    return kLn2 + logBesselI0(2 * std::sqrt(2 * pair.moment)) - 2 * pair.dot;
  const double gap = lambda - pair.dot;
  return (gap * gap + pair.spread) / lambda;
}

double maclaurinLogVariance(double diffNormSquared, double excess) {
  if (!(excess > 0)) return kNegativeInfinity;
  return -diffNormSquared + logExpm1(excess);
}

double dataDrivenMaclaurinLambda(const SetStatistics& stats) {
  return std::sqrt(stats.meanXNormSquared * stats.meanYNormSquared);
}

}  // namespace rfscope
