#include "core/analytic/data_driven_parameters.h"

#include <cmath>
#include <cstdint>

#include <boost/math/tools/minima.hpp>

#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/oprf.h"

namespace rfscope {

SetStatistics setStatistics(const std::vector<Eigen::VectorXd>& xs,
                            const std::vector<Eigen::VectorXd>& ys) {
  SetStatistics s;
  if (xs.empty() || ys.empty()) return s;
  const Eigen::Index d = xs.front().size();
  s.dimension = static_cast<int>(d);
  Eigen::VectorXd sumX = Eigen::VectorXd::Zero(d), sumY = Eigen::VectorXd::Zero(d);
  Eigen::VectorXd squaresX = sumX, squaresY = sumX, absX = sumX, absY = sumX;
  for (const auto& x : xs) {
    sumX += x;
    squaresX += x.cwiseAbs2();
    absX += x.cwiseAbs();
  }
  for (const auto& y : ys) {
    sumY += y;
    squaresY += y.cwiseAbs2();
    absY += y.cwiseAbs();
  }
  const double lx = static_cast<double>(xs.size()), ly = static_cast<double>(ys.size());
  s.meanXNormSquared = squaresX.sum() / lx;
  s.meanYNormSquared = squaresY.sum() / ly;
  const double cross = 2 * sumX.dot(sumY) / (lx * ly);
  s.meanSumNormSquared = s.meanXNormSquared + cross + s.meanYNormSquared;
  s.meanDiffNormSquared = s.meanXNormSquared - cross + s.meanYNormSquared;
  s.meanPoisStatistic = squaresX.dot(squaresY) / (lx * ly);
  s.meanAbsProducts = absX.cwiseProduct(absY) / (lx * ly);
  return s;
}

double dataDrivenOprfA(const SetStatistics& stats) {
  return -oprfRMinusOne(stats.dimension, stats.meanSumNormSquared) / 8;
}

double dataDrivenPoisLambda(const SetStatistics& stats) {
  return poisLambdaStar(stats.dimension, stats.meanPoisStatistic);
}

double dataDrivenGeomP(const SetStatistics& stats) {
  auto objective = [&](double t) {
    const double p = 1 / (1 + std::exp(-t)), q = 1 / (1 + std::exp(t));
    double value = -stats.dimension * std::log(p);
    for (Eigen::Index l = 0; l < stats.meanAbsProducts.size(); ++l)
      value += logBesselI0(2 * stats.meanAbsProducts[l] / std::sqrt(q));
    return value;
  };
  std::uintmax_t iterations = 200;
  const auto r = boost::math::tools::brent_find_minima(objective, -40.0, 40.0, 30, iterations);
  return 1 / (1 + std::exp(-r.first));
}

GerfOptimum dataDrivenGerf(const SetStatistics& stats) {
  return optimizeGerf(stats.dimension, stats.meanDiffNormSquared, stats.meanSumNormSquared, {});
}

}  // namespace rfscope
