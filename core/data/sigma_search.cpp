#include "core/data/sigma_search.h"

#include <cmath>

#include "core/math/contract.h"

namespace rfscope {

std::vector<double> logSpacedSigmas(const SigmaGrid& grid) {
  RFSCOPE_EXPECTS(grid.lowest > 0 && grid.highest >= grid.lowest && std::isfinite(grid.highest),
                  "sigma grid: need 0 < lowest <= highest < infinity");
  RFSCOPE_EXPECTS(grid.points >= 1 && grid.points <= 1000, "sigma grid: between 1 and 1000 points");
  std::vector<double> sigmas(static_cast<std::size_t>(grid.points));
  const double logLowest = std::log(grid.lowest), logHighest = std::log(grid.highest);
  for (int k = 0; k < grid.points; ++k) {
    const double t = grid.points == 1 ? 0.0 : static_cast<double>(k) / (grid.points - 1);
    sigmas[static_cast<std::size_t>(k)] = std::exp(logLowest + t * (logHighest - logLowest));
  }
  sigmas.front() = grid.lowest;  // exactly the ends asked for
  if (grid.points > 1) sigmas.back() = grid.highest;
  return sigmas;
}

SigmaSearchResult searchSigma(const std::function<double(double)>& accuracyAt,
                              const SigmaGrid& grid, const std::function<bool()>& stop) {
  SigmaSearchResult result;
  bool found = false;
  for (const double sigma : logSpacedSigmas(grid)) {
    if (stop && stop()) return result;
    const double value = accuracyAt(sigma);
    result.sigmas.push_back(sigma);
    result.accuracies.push_back(value);
    if (!std::isnan(value) && (!found || value > result.accuracy)) {
      result.sigma = sigma;
      result.accuracy = value;
      found = true;
    }
  }
  if (!found) {  // every accuracy NaN: report the smallest σ rather than none
    result.sigma = result.sigmas.front();
    result.accuracy = result.accuracies.front();
  }
  result.complete = true;
  return result;
}

}  // namespace rfscope
