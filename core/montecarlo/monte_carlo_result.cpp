#include "core/montecarlo/monte_carlo_result.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include <boost/math/distributions/students_t.hpp>

namespace rfscope {
namespace {

// Share of the sum of squared deviations that the single largest-magnitude trial carries.
double largestShare(const MomentAccumulator& m) {
  if (m.count < 2 || !(m.m2 > 0) || m.largest.sign == 0) return 0;
  const double x = m.largest.sign * std::exp(m.largest.logAbs - m.logScale);
  return (x - m.mean) * (x - m.mean) / m.m2;
}

Histogram makeHistogram(const std::vector<StoredSample>& sorted, int bins) {
  Histogram h;
  h.sampleCount = static_cast<std::int64_t>(sorted.size());
  if (sorted.empty() || bins < 1) return h;
  const SignedLog lo = sorted.front().value, hi = sorted.back().value;
  // Log bins when every value is positive and they span more than two decades.
  h.logScale = lo.sign > 0 && hi.logAbs - lo.logAbs > std::log(100.0);
  const auto coordinate = [&](const SignedLog& v) { return h.logScale ? v.logAbs : v.value(); };
  double a = coordinate(lo), b = coordinate(hi);
  if (!std::isfinite(a) || !std::isfinite(b)) return h;
  if (b <= a) b = a + 1;
  h.edges.resize(bins + 1);
  for (int i = 0; i <= bins; ++i)
    h.edges[i] = a + (b - a) * i / bins;
  h.counts.assign(bins, 0);
  for (const auto& s : sorted) {
    const double c = coordinate(s.value);
    const int bin = std::clamp(static_cast<int>((c - a) / (b - a) * bins), 0, bins - 1);
    ++h.counts[bin];
  }
  return h;
}

}  // namespace

double studentTQuantile(double level, double dof) {
  const boost::math::students_t distribution(dof);
  return boost::math::quantile(distribution, 0.5 + 0.5 * level);
}

MonteCarloResult summarize(const MomentAccumulator& moments,
                           const std::vector<MomentAccumulator>& batches,
                           std::vector<StoredSample>& samples,
                           const std::vector<double>& quantileLevels, int histogramBins,
                           bool fourthMomentInfinite, const std::optional<ExactTail>& exactTail) {
  MonteCarloResult r;
  r.moments = moments;
  r.trials = moments.count;
  r.mean = moments.logMean();
  r.logVariance = moments.logVariance();
  // Round-off is not variance: where every trial is the same number up to a few ulps (the
  // estimator is exact, as PoisRF+ in d = 1), the sample variance is that round-off (1e-32
  // relative) and its interval a fiction. A relative spread below 2^-48 (16 ulps) is reported as
  // an exact 0.
  constexpr double kLogRoundOff = -48 * std::numbers::ln2;
  if (std::isfinite(r.mean.logAbs) && r.logVariance < 2 * (r.mean.logAbs + kLogRoundOff))
    r.logVariance = -std::numeric_limits<double>::infinity();
  r.variance = std::exp(r.logVariance);

  // Batch means: the spread of the per-batch variances, relative to the overall one.
  std::vector<double> ratios;
  for (const auto& batch : batches) {
    if (batch.count < 2) continue;
    ratios.push_back(std::exp(batch.logVariance() - r.logVariance));
  }
  r.batches = static_cast<int>(ratios.size());
  if (r.logVariance == -std::numeric_limits<double>::infinity()) {  // exactly 0, and so is its
    r.relativeStdErr = 0;                                           // interval
    r.logCi95Low = r.logCi95High = r.logVariance;
  } else if (ratios.size() >= 2 && std::isfinite(r.logVariance)) {
    double mean = 0;
    for (double v : ratios)
      mean += v;
    mean /= static_cast<double>(ratios.size());
    double squares = 0;
    for (double v : ratios)
      squares += (v - mean) * (v - mean);
    const double k = static_cast<double>(ratios.size());
    r.relativeStdErr = std::sqrt(squares / (k - 1) / k);
    const double t = studentTQuantile(0.95, k - 1);
    r.logCi95Low = r.logVariance + std::log(std::max(0.0, 1 - t * r.relativeStdErr));
    r.logCi95High = r.logVariance + std::log1p(t * r.relativeStdErr);
  } else {
    r.relativeStdErr = std::numeric_limits<double>::infinity();
    r.logCi95Low = -std::numeric_limits<double>::infinity();
    r.logCi95High = std::numeric_limits<double>::infinity();
  }
  // From the fourth moment: Var(s²) ≈ (μ₄ - σ⁴ (n-3)/(n-1)) / n.
  if (moments.count > 3 && moments.m2 > 0) {
    const double n = static_cast<double>(moments.count);
    const double s2 = moments.m2 / (n - 1);
    const double ratio = (moments.m4 / n) / (s2 * s2) - (n - 3) / (n - 1);
    r.momentRelativeStdErr = std::sqrt(std::max(0.0, ratio) / n);
  }

  std::sort(samples.begin(), samples.end(),
            [](const StoredSample& a, const StoredSample& b) { return a.value < b.value; });
  for (double level : quantileLevels) {
    Quantile q;
    q.level = level;
    if (!samples.empty()) {
      const double position = level * static_cast<double>(samples.size() - 1);
      q.value = samples[static_cast<std::size_t>(std::llround(position))].value;
    }
    r.quantiles.push_back(q);
  }
  r.histogram = makeHistogram(samples, histogramBins);

  if (fourthMomentInfinite)
    r.heavyTailReasons.push_back(
        "the estimator's fourth moment is infinite: the sample variance "
        "does not converge at the usual rate, if at all");
  r.exactTail = exactTail;
  if (exactTail && !fourthMomentInfinite &&
      !(static_cast<double>(moments.count) >= exactTail->trialsNeeded)) {
    if (std::isfinite(exactTail->trialsNeeded)) {
      std::ostringstream text;
      text << std::setprecision(2) << "the exact moments call for at least "
           << exactTail->trialsNeeded << " trials before the 95% interval can be trusted "
           << "(the squared error's skewness is " << exactTail->errorSkewness << ")";
      r.heavyTailReasons.push_back(text.str());
    } else {
      r.heavyTailReasons.push_back(
          "the exact moments make the squared error too lopsided for any feasible number of "
          "trials to give a trustworthy interval");
    }
  }
  if (std::isfinite(r.relativeStdErr) && r.relativeStdErr > 0.3)
    r.heavyTailReasons.push_back("the variance differs strongly between batches of trials");
  // Light tails give the largest trial a share of about 2 ln(n)/n; far more than that (and at
  // least 10%) means the variance rests on a handful of rare values.
  const double n = static_cast<double>(std::max<std::int64_t>(moments.count, 2));
  if (std::isfinite(r.logVariance) && largestShare(moments) > std::max(0.1, 10 * std::log(n) / n))
    r.heavyTailReasons.push_back("a single trial carries more than 10% of the sum of squares");
  r.heavyTail = !r.heavyTailReasons.empty();
  return r;
}

}  // namespace rfscope
