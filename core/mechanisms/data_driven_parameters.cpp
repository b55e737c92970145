#include "core/mechanisms/data_driven_parameters.h"

#include <algorithm>

#include "core/mechanisms/mechanism.h"

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
  s.meanXSquares = squaresX / lx;
  s.meanYSquares = squaresY / ly;
  s.meanX = sumX / lx;
  s.meanY = sumY / ly;
  return s;
}

ScalableStatistics::ScalableStatistics(const std::vector<Eigen::VectorXd>& xs,
                                       const std::vector<Eigen::VectorXd>& ys, bool secondMoments)
    : base_(setStatistics(xs, ys)) {
  if (secondMoments && !xs.empty() && !ys.empty()) secondMoments_ = derfMoments(xs, ys);
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
  s.meanXSquares *= s2;
  s.meanYSquares *= s2;
  s.meanX *= sigma;
  s.meanY *= sigma;
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
  s.meanXSquares = squaresX.matrix();
  s.meanYSquares = squaresY.matrix();
  s.meanX = meanX.matrix();
  s.meanY = meanY.matrix();
  return s;
}

std::optional<DerfMoments> ScalableStatistics::secondMomentsAt(double sigma) const {
  if (!secondMoments_) return std::nullopt;
  return scaledMoments(*secondMoments_, sigma);
}

const DerfMoments* SetStatisticsSource::secondMoments() {
  if (!secondMoments_) secondMoments_ = statistics_.secondMomentsAt(sigma_);
  return *secondMoments_ ? &**secondMoments_ : nullptr;
}

const SetStatistics& SetStatisticsSource::plain() {
  if (!plain_) plain_ = statistics_.at(sigma_);
  return *plain_;
}

const SetStatistics& SetStatisticsSource::shifted(double epsilon) {
  auto found = shifted_.find(epsilon);
  if (found == shifted_.end())
    found = shifted_.emplace(epsilon, statistics_.shiftedAt(sigma_, epsilon)).first;
  return found->second;
}

std::vector<ParameterSet> dataDrivenParameters(const std::vector<const Mechanism*>& mechanisms,
                                               const ScalableStatistics& statistics, double sigma) {
  std::vector<ParameterSet> chosen;
  chosen.reserve(mechanisms.size());
  SetStatisticsSource source(statistics, sigma);
  for (const Mechanism* mechanism : mechanisms)
    chosen.push_back(mechanism->dataDrivenParameters(source));
  return chosen;
}

bool usesSecondMoments(const std::vector<const Mechanism*>& mechanisms) {
  return std::any_of(mechanisms.begin(), mechanisms.end(),
                     [](const Mechanism* m) { return m->usesSecondMoments(); });
}

ParameterSet dataDrivenParameters(const Mechanism& mechanism,
                                  const std::vector<Eigen::VectorXd>& xs,
                                  const std::vector<Eigen::VectorXd>& ys) {
  if (xs.empty() || ys.empty()) return {};
  const ScalableStatistics statistics(xs, ys, mechanism.usesSecondMoments());
  return dataDrivenParameters({&mechanism}, statistics, 1.0).front();
}

}  // namespace rfscope
