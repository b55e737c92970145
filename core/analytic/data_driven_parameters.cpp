#include "core/analytic/data_driven_parameters.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include <boost/math/tools/minima.hpp>

#include "core/analytic/log_bessel_i0.h"
#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/mechanism.h"
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
  Eigen::VectorXd arguments(stats.meanAbsProducts.size());
  auto objective = [&](double t) {
    const double p = 1 / (1 + std::exp(-t)), q = 1 / (1 + std::exp(t));
    arguments = (2 / std::sqrt(q)) * stats.meanAbsProducts;
    LogBesselI0Sum bessel;
    bessel.add(arguments.data(), static_cast<std::size_t>(arguments.size()));
    return -stats.dimension * std::log(p) + bessel.value();
  };
  std::uintmax_t iterations = 200;
  const auto r = boost::math::tools::brent_find_minima(objective, -40.0, 40.0, 30, iterations);
  return 1 / (1 + std::exp(-r.first));
}

GerfOptimum dataDrivenGerf(const SetStatistics& stats) {
  return optimizeGerf(stats.dimension, stats.meanDiffNormSquared, stats.meanSumNormSquared, {});
}

ScalableStatistics::ScalableStatistics(const std::vector<Eigen::VectorXd>& xs,
                                       const std::vector<Eigen::VectorXd>& ys)
    : base_(setStatistics(xs, ys)) {
  const Eigen::Index d = base_.dimension;
  meanGapX_ = meanGapY_ = meanSquaredGapX_ = meanSquaredGapY_ = Eigen::VectorXd::Zero(d);
  const std::size_t pairs = std::min(xs.size(), ys.size());
  for (std::size_t i = 0; i < pairs; ++i) {
    const Eigen::VectorXd low = xs[i].cwiseMin(ys[i]);
    const Eigen::VectorXd gapX = xs[i] - low, gapY = ys[i] - low;
    meanGapX_ += gapX;
    meanGapY_ += gapY;
    meanSquaredGapX_ += gapX.cwiseAbs2();
    meanSquaredGapY_ += gapY.cwiseAbs2();
  }
  if (pairs == 0) return;
  const double count = static_cast<double>(pairs);
  for (Eigen::VectorXd* mean : {&meanGapX_, &meanGapY_, &meanSquaredGapX_, &meanSquaredGapY_})
    *mean /= count;
}

SetStatistics ScalableStatistics::at(double sigma) const {
  const double s2 = sigma * sigma;
  SetStatistics s = base_;
  s.meanXNormSquared *= s2;
  s.meanYNormSquared *= s2;
  s.meanSumNormSquared *= s2;
  s.meanDiffNormSquared *= s2;
  s.meanPoisStatistic *= s2 * s2;
  s.meanAbsProducts *= s2;
  return s;
}

SetStatistics ScalableStatistics::shiftedAt(double sigma, double epsilon) const {
  // Entries σg + ε: mean = σ mean g + ε, mean square = σ² mean g² + 2σε mean g + ε².
  const Eigen::ArrayXd meanX = sigma * meanGapX_.array() + epsilon;
  const Eigen::ArrayXd meanY = sigma * meanGapY_.array() + epsilon;
  const Eigen::ArrayXd squaresX = sigma * sigma * meanSquaredGapX_.array() +
                                  2 * sigma * epsilon * meanGapX_.array() + epsilon * epsilon;
  const Eigen::ArrayXd squaresY = sigma * sigma * meanSquaredGapY_.array() +
                                  2 * sigma * epsilon * meanGapY_.array() + epsilon * epsilon;
  SetStatistics s;
  s.dimension = base_.dimension;
  s.meanXNormSquared = squaresX.sum();
  s.meanYNormSquared = squaresY.sum();
  const double cross = 2 * (meanX * meanY).sum();
  s.meanSumNormSquared = s.meanXNormSquared + cross + s.meanYNormSquared;
  s.meanDiffNormSquared = s.meanXNormSquared - cross + s.meanYNormSquared;
  s.meanPoisStatistic = (squaresX * squaresY).sum();
  s.meanAbsProducts = (meanX * meanY).matrix();
  return s;
}

std::vector<ParameterSet> dataDrivenParameters(const std::vector<const Mechanism*>& mechanisms,
                                               const ScalableStatistics& statistics, double sigma) {
  std::vector<ParameterSet> chosen(mechanisms.size());
  // Each set of statistics is computed at most once, when a mechanism first needs it.
  std::optional<SetStatistics> plain;
  auto plainStatistics = [&]() -> const SetStatistics& {
    if (!plain) plain = statistics.at(sigma);
    return *plain;
  };
  std::map<double, SetStatistics> shifted;  // by ε
  auto shiftedStatistics = [&](double epsilon) -> const SetStatistics& {
    auto found = shifted.find(epsilon);
    if (found == shifted.end())
      found = shifted.emplace(epsilon, statistics.shiftedAt(sigma, epsilon)).first;
    return found->second;
  };
  for (std::size_t m = 0; m < mechanisms.size(); ++m) {
    ParameterSet& parameters = chosen[m];
    const std::string& id = mechanisms[m]->info().id;
    if (id == "gerf") {
      const GerfOptimum optimum = dataDrivenGerf(plainStatistics());
      parameters.set("A", optimum.a.real());
      parameters.set("A_imag", optimum.a.imag());
      parameters.set("s", std::string(optimum.s > 0 ? "+1" : "-1"));
    } else if (id == "oprf") {
      parameters.set("A", dataDrivenOprfA(plainStatistics()));
    } else if (id == "pois") {
      parameters.set("lambda", dataDrivenPoisLambda(plainStatistics()));
    } else if (id == "geom") {
      parameters.set("p", dataDrivenGeomP(plainStatistics()));
    } else if (id == "pois-plus" || id == "geom-plus") {
      double epsilon = 0.1;
      for (const auto& spec : mechanisms[m]->parameters())
        if (spec.key == "epsilon") epsilon = std::get<double>(spec.defaultValue);
      parameters.set("epsilon", epsilon);
      if (id == "pois-plus")
        parameters.set("lambda", dataDrivenPoisLambda(shiftedStatistics(epsilon)));
      else
        parameters.set("p", dataDrivenGeomP(shiftedStatistics(epsilon)));
    }
  }
  return chosen;
}

ParameterSet dataDrivenParameters(const Mechanism& mechanism,
                                  const std::vector<Eigen::VectorXd>& xs,
                                  const std::vector<Eigen::VectorXd>& ys) {
  if (xs.empty() || ys.empty()) return {};
  return dataDrivenParameters({&mechanism}, ScalableStatistics(xs, ys), 1.0).front();
}

}  // namespace rfscope
