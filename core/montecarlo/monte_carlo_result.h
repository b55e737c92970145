#pragma once
// What a Monte Carlo run reports about the M-feature estimator K̂ at one pair: moments in the log
// domain, the variance with its batch-means standard error, quantiles, a histogram and an honest
// heavy-tail verdict. Every variance is available as a natural log; plain values may be ±inf/0.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/montecarlo/exact_tail.h"
#include "core/montecarlo/leaf_result.h"
#include "core/params/parameter_set.h"

namespace rfscope {

struct Quantile {
  double level = 0;  // in [0, 1]
  SignedLog value;
};

struct Histogram {
  bool logScale = false;      // bins of log K̂ (all values positive and spread) or of K̂
  std::vector<double> edges;  // bins + 1 edges, in the scale above
  std::vector<std::int64_t> counts;
  std::int64_t sampleCount = 0;  // stored trials it was built from
};

struct MonteCarloResult {
  bool cancelled = false;
  std::int64_t trials = 0;  // trials completed and merged
  std::int64_t trialsRequested = 0;
  double seconds = 0;
  double featuresPerSecond = 0;
  std::string backend;      // "cpu", "cuda"
  std::string backendNote;  // why an automatic choice fell on the CPU (empty otherwise)
  std::string path;         // "fast" or "full"

  double logKernelValue = 0;               // the exact kernel value K̂ is unbiased for
  SignedLog mean;                          // sample mean of K̂
  double logVariance = 0;                  // log of the unbiased sample variance (= MSE estimate)
  double variance = 0;                     // exp(logVariance) (may be inf or 0)
  double relativeStdErr = 0;               // batch-means standard error / variance
  double momentRelativeStdErr = 0;         // the same from the 4th moment, assuming independence
  double logCi95Low = 0, logCi95High = 0;  // log of the 95% interval for the variance
  int batches = 0;                         // non-empty batches behind relativeStdErr

  std::vector<Quantile> quantiles;
  Histogram histogram;

  bool heavyTail = false;
  std::vector<std::string> heavyTailReasons;
  // What the exact moments say (exact_tail.h): the trials the interval needs; nullopt where the
  // estimator has no closed-form moments.
  std::optional<ExactTail> exactTail;

  ParameterSet parametersUsed;
  MomentAccumulator moments;  // for merging further runs
};

// Builds the summary from merged moments, the per-batch moments and the stored samples (sorted
// in place). studentT95 etc. come from the number of non-empty batches; the heavy-tail verdict
// also from what is known exactly (an infinite fourth moment, the exact tail).
MonteCarloResult summarize(const MomentAccumulator& moments,
                           const std::vector<MomentAccumulator>& batches,
                           std::vector<StoredSample>& samples,
                           const std::vector<double>& quantileLevels, int histogramBins,
                           bool fourthMomentInfinite,
                           const std::optional<ExactTail>& exactTail = std::nullopt);

// Two-sided Student-t quantile for confidence `level` (e.g. 0.999) and `dof` degrees of freedom.
double studentTQuantile(double level, double dof);

}  // namespace rfscope
