#include "ui/series_distinction.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rfscope::ui {
namespace {

// Over half of the common rows close together: hiding that much of a series hides it.
constexpr double kCoincidingShare = 0.5;

}  // namespace

std::vector<Coincidence> findCoincidences(const std::vector<QVector<double>>& values,
                                          const std::vector<bool>& drawnAsLine,
                                          double toleranceFraction) {
  double lowest = std::numeric_limits<double>::infinity();
  double highest = -lowest;
  for (const auto& series : values)
    for (double v : series)
      if (std::isfinite(v)) {
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
      }
  std::vector<Coincidence> result(values.size());
  const double tolerance = toleranceFraction * (highest - lowest);
  if (!(tolerance > 0)) return result;
  const auto coincide = [&](const QVector<double>& a, const QVector<double>& b) {
    int common = 0, close = 0;
    for (qsizetype row = 0; row < std::min(a.size(), b.size()); ++row) {
      if (!std::isfinite(a[row]) || !std::isfinite(b[row])) continue;
      // Rows where both lie on the common floor (densities' empty tails, errors of zero) say
      // nothing about whether one curve hides the other.
      if (a[row] - lowest <= tolerance && b[row] - lowest <= tolerance) continue;
      ++common;
      if (std::abs(a[row] - b[row]) <= tolerance) ++close;
    }
    return common >= 2 && close > kCoincidingShare * common;
  };
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t j = 1; j < values.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (coincide(values[i], values[j])) {
        pairs.emplace_back(i, j);
        result[j].rank = std::max(result[j].rank, result[i].rank + 1);
      }
  for (const auto& [i, j] : pairs)
    if (j < drawnAsLine.size() && drawnAsLine[j])
      result[i].depth = std::max(result[i].depth, result[j].rank - result[i].rank);
  return result;
}

bool bandsOverlap(const QVector<double>& lowA, const QVector<double>& highA,
                  const QVector<double>& lowB, const QVector<double>& highB) {
  const auto rows = std::min({lowA.size(), highA.size(), lowB.size(), highB.size()});
  for (qsizetype row = 0; row < rows; ++row) {
    const double a0 = std::min(lowA[row], highA[row]), a1 = std::max(lowA[row], highA[row]);
    const double b0 = std::min(lowB[row], highB[row]), b1 = std::max(lowB[row], highB[row]);
    if (!std::isfinite(a0) || !std::isfinite(a1) || !std::isfinite(b0) || !std::isfinite(b1))
      continue;
    if (a0 <= b1 && b0 <= a1) return true;
  }
  return false;
}

}  // namespace rfscope::ui
