#include "core/montecarlo/conformity_estimate.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <tbb/parallel_for.h>

namespace rfscope {

double conformityKernel(int dimension, double z) {
  const double quarter = 0.25 * z * z, half = 0.5 * dimension;
  double term = 1, sum = 1;
  for (int k = 1; k < 100000; ++k) {
    term *= quarter / (k * (k - 1 + half));
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return sum;
}

void blockConformity(const Eigen::MatrixXd& omega, std::int64_t rows, double v, double& conformity,
                     double& meanPairNormSquared) {
  const int d = static_cast<int>(omega.cols());
  const Eigen::MatrixXd gram = omega.topRows(rows) * omega.topRows(rows).transpose();
  double sumH = 0, sumW2 = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < rows; ++j) {
      if (i == j) continue;
      const double w2 = std::max(0.0, gram(i, i) + gram(j, j) + 2 * gram(i, j));
      sumH += conformityKernel(d, v * std::sqrt(w2));
      sumW2 += w2;
    }
  const double pairs = static_cast<double>(rows * (rows - 1));
  conformity = sumH / pairs;
  meanPairNormSquared = sumW2 / pairs;
}

ConformityResult estimateConformity(const ConformityRequest& request) {
  // The structured couplings' blocks are Hadamard products of a power-of-two size: their
  // frequencies live in d padded up to one, as in every other use of them.
  const int d = frequencyDimension(request.coupling, request.dimension);
  const std::int64_t rows = request.rows > 0 ? std::min<std::int64_t>(request.rows, d) : d;
  // Fixed chunks merged in order: the same answer for every thread count.
  constexpr std::int64_t kChunk = 64;
  const std::int64_t chunks = (request.trials + kChunk - 1) / kChunk;
  std::vector<MomentAccumulator> conformity(chunks);
  std::vector<double> pairNormSquared(chunks, 0.0);
  const double top = std::sqrt(2.0 * d) + 8;  // w_ij ≤ this but for negligible mass
  const int bins = std::max(1, request.histogramBins);
  std::vector<std::vector<std::int64_t>> counts(chunks, std::vector<std::int64_t>(bins, 0));
  tbb::parallel_for(std::int64_t{0}, chunks, [&](std::int64_t c) {
    FrequencyScratch scratch;
    for (std::int64_t t = c * kChunk; t < std::min(request.trials, (c + 1) * kChunk); ++t) {
      TrialStream rng(request.seed, static_cast<std::uint64_t>(t));
      drawFullBlock(request.coupling, d, request.simplexPlusIterations, rng, scratch);
      double h = 0, w2 = 0;
      blockConformity(scratch.omega, rows, request.v, h, w2);
      conformity[c].add(SignedLog::fromValue(h));
      pairNormSquared[c] += w2;
      const Eigen::MatrixXd gram =
          scratch.omega.topRows(rows) * scratch.omega.topRows(rows).transpose();
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = i + 1; j < rows; ++j) {
          const double w = std::sqrt(std::max(0.0, gram(i, i) + gram(j, j) + 2 * gram(i, j)));
          ++counts[c][std::clamp(static_cast<int>(w / top * bins), 0, bins - 1)];
        }
    }
  });
  ConformityResult result;
  MomentAccumulator total;
  double w2Sum = 0;
  result.pairNorms.edges.resize(bins + 1);
  for (int b = 0; b <= bins; ++b)
    result.pairNorms.edges[b] = top * b / bins;
  result.pairNorms.counts.assign(bins, 0);
  for (std::int64_t c = 0; c < chunks; ++c) {
    total.merge(conformity[c]);
    w2Sum += pairNormSquared[c];
    for (int b = 0; b < bins; ++b)
      result.pairNorms.counts[b] += counts[c][b];
  }
  result.trials = total.count;
  result.conformity = total.logMean().value();
  result.standardError =
      std::exp(0.5 * (total.logVariance() - std::log(static_cast<double>(total.count))));
  result.meanPairNormSquared = w2Sum / static_cast<double>(request.trials);
  result.pairNorms.sampleCount = request.trials * rows * (rows - 1) / 2;
  return result;
}

}  // namespace rfscope
