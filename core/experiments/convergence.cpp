#include "core/experiments/convergence.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/experiment_support.h"
#include "core/experiments/single_pair_estimator.h"
#include "core/math/log_math.h"
#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_result.h"

namespace rfscope {
namespace {

constexpr std::int64_t kFirstCheckpoint = 4 * kTrialsPerLeaf;

// Checkpoints (in leaves): about `count` log-spaced values from kFirstCheckpoint to all trials.
std::vector<std::int64_t> checkpointLeaves(std::int64_t trials, int count) {
  const std::int64_t leaves = (trials + kTrialsPerLeaf - 1) / kTrialsPerLeaf;
  const std::int64_t first = std::min<std::int64_t>(leaves, kFirstCheckpoint / kTrialsPerLeaf);
  std::vector<std::int64_t> out;
  for (double l : valueGrid(static_cast<double>(first), static_cast<double>(leaves), count, true)) {
    const auto rounded = std::max<std::int64_t>(1, std::llround(l));
    if (out.empty() || rounded > out.back()) out.push_back(rounded);
  }
  out.back() = leaves;
  return out;
}

using Quantity = ConvergenceSettings::Quantity;

// A variance-like quantity in logs: a·log Var + b (Var, Var/K², √Var/K).
struct LogScale {
  double a, b;
};

LogScale logScale(Quantity quantity, double logKernel) {
  return {quantity == Quantity::RelativeRmse ? 0.5 : 1.0,
          quantity == Quantity::RelativeVariance ? -2 * logKernel
          : quantity == Quantity::RelativeRmse   ? -logKernel
                                                 : 0.0};
}

// The exact value's log: the kernel, or the closed-form variance where there is one (else NaN).
double exactLog(const ConvergenceSettings& settings, const SamplingPlan& plan) {
  if (settings.quantity == Quantity::Kernel) return plan.logKernelValue;
  const MonteCarloRequest& request = settings.request;
  const LogScale scale = logScale(settings.quantity, plan.logKernelValue);
  const AnalyticAnswer answer =
      evaluateAnalytic(request.withParameters(plan.parametersUsed), request.x, request.y);
  return answer.variance ? scale.a * answer.variance->logVariance + scale.b : kNaN;
}

// The trials' moments so far, in leaf order, and how many leaves the next round runs (rounds of
// about 30 ms).
class RunningMoments {
 public:
  RunningMoments(const SamplingPlan& plan, std::int64_t trials)
      : plan_(plan), batches_(kBatchCount) {
    range_.totalTrials = trials;
    range_.selectionThreshold = 0;  // no stored samples: the histogram is its own experiment
  }

  std::int64_t leavesDone() const { return nextLeaf_; }

  // Runs one round, up to leaf `upTo` at most; false if cancelled.
  bool runRound(std::int64_t upTo, RunContext& context) {
    using Clock = std::chrono::steady_clock;
    const std::int64_t count = std::min(leavesPerRound_, upTo - nextLeaf_);
    leaves_.assign(static_cast<std::size_t>(count), LeafResult{});
    range_.firstLeaf = nextLeaf_;
    const auto start = Clock::now();
    const std::function<bool()> stop = [&context] { return context.cancelled(); };
    if (!parallelCells(context, leaves_.size(), [&](std::size_t i) {
          runLeaf(plan_, range_, nextLeaf_ + static_cast<std::int64_t>(i), leaves_[i],
                  scratch_.local(), stop);
        }))
      return false;
    for (const auto& leaf : leaves_) {
      total_.merge(leaf.moments);
      batches_[static_cast<std::size_t>(nextLeaf_ % kBatchCount)].merge(leaf.moments);
      ++nextLeaf_;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    leavesPerRound_ = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(count * std::min(4.0, seconds > 0 ? 0.03 / seconds : 4.0)), 1,
        1 << 14);
    return true;
  }

  MonteCarloResult summary() {
    return summarize(total_, batches_, noSamples_, {}, 0, plan_.fourthMomentInfinite,
                     plan_.exactTail);
  }

 private:
  const SamplingPlan& plan_;
  MomentAccumulator total_;
  std::vector<MomentAccumulator> batches_;
  std::vector<LeafResult> leaves_;
  std::vector<StoredSample> noSamples_;
  LeafRange range_;
  tbb::enumerable_thread_specific<TrialScratch> scratch_;
  std::int64_t nextLeaf_ = 0, leavesPerRound_ = 8;
};

// Appends the checkpoint of summary `s` to the result.
void commitCheckpoint(const ConvergenceSettings& settings, const SamplingPlan& plan,
                      const MonteCarloResult& s, ConvergenceResult& result) {
  const LogScale scale = logScale(settings.quantity, plan.logKernelValue);
  const double logUnit = std::isfinite(result.logExact) ? result.logExact : 0.0;
  const double n = static_cast<double>(s.trials);
  double logEstimate, low, high;
  if (settings.quantity != Quantity::Kernel) {
    logEstimate = scale.a * s.logVariance + scale.b;
    low = std::exp(scale.a * s.logCi95Low + scale.b - logUnit);
    high = std::exp(scale.a * s.logCi95High + scale.b - logUnit);
  } else {
    logEstimate = s.mean.sign > 0 ? s.mean.logAbs : kNaN;
    const double half = 1.96 * std::exp(0.5 * (s.logVariance - std::log(n)) - logUnit);
    const double centre = s.mean.value() * std::exp(-logUnit);
    low = centre - half;
    high = centre + half;
  }
  result.trials.push_back(n);
  result.estimate.push_back(std::exp(logEstimate - logUnit));
  result.low.push_back(low);
  result.high.push_back(high);
  result.logEstimate.push_back(logEstimate);
  result.heavyTail = s.heavyTail;
  result.heavyTailReasons = s.heavyTailReasons;
}

}  // namespace

const ExperimentInfo& Convergence::info() const {
  static const ExperimentInfo info{
      "convergence", "Monte Carlo convergence", "Teaching",
      "The running Monte Carlo estimate with its 95% band against the exact value as trials grow; "
      "heavy tails visibly fail to converge"};
  return info;
}

std::vector<ParameterSpec> Convergence::parameters() const {
  auto specs = singlePairEstimatorParameters(200000);
  auto quantity = choiceParameter("quantity", "Quantity",
                                  {{"variance", "variance of K̂ (= MSE)"},
                                   {"relative-variance", "relative variance Var/K²"},
                                   {"relative-rmse", "relative RMSE √Var/K"},
                                   {"kernel", "kernel value (mean of K̂)"}},
                                  "variance", "what the running estimate estimates");
  quantity.group = "Estimator";
  auto points = integerParameter("checkpoints", "Checkpoints", 80, 2, 2000,
                                 "log-spaced trial counts at which the estimate is shown");
  points.group = "Sampling";
  specs.push_back(quantity);
  specs.push_back(points);
  return specs;
}

std::vector<ParameterError> Convergence::crossValidate(const ParameterSet& params) const {
  return singlePairEstimatorErrors(params);
}

ConvergenceSettings Convergence::parse(const ParameterSet& params) const {
  ConvergenceSettings s;
  s.request = singlePairRequest(params);
  s.quantity = choiceValue<Quantity>(params, "quantity",
                                     {{"variance", Quantity::Variance},
                                      {"relative-variance", Quantity::RelativeVariance},
                                      {"relative-rmse", Quantity::RelativeRmse},
                                      {"kernel", Quantity::Kernel}});
  s.checkpointLeaves =
      checkpointLeaves(s.request.trials, static_cast<int>(params.integer("checkpoints")));
  return s;
}

ParameterSet Convergence::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"d", std::int64_t{16}},
                         {"sigma", 0.1},
                         {"trials", std::int64_t{40000}},
                         {"checkpoints", std::int64_t{20}}});
  return defaultsWith({{"trials", std::int64_t{1000000000}}});
}

Computed<ConvergenceResult> Convergence::compute(const ConvergenceSettings& settings,
                                                 ResultContext<ConvergenceResult>& context) const {
  const SamplingPlan plan = *makeSamplingPlan(settings.request);  // crossValidate checked it
  Computed<ConvergenceResult> computed;
  ConvergenceResult& result = computed.result;
  result.logExact = exactLog(settings, plan);
  const std::vector<std::int64_t>& checkpoints = settings.checkpointLeaves;
  const std::int64_t totalLeaves = checkpoints.back();
  RunningMoments moments(plan, settings.request.trials);
  std::size_t nextCheckpoint = 0;
  while (moments.leavesDone() < totalLeaves) {
    if (context.cancelled() || !moments.runRound(checkpoints[nextCheckpoint], context)) {
      computed.status = RunStatus::Cancelled;
      return computed;
    }
    if (moments.leavesDone() < checkpoints[nextCheckpoint]) continue;
    commitCheckpoint(settings, plan, moments.summary(), result);
    ++nextCheckpoint;
    context.reportProgress(static_cast<double>(moments.leavesDone()) /
                           static_cast<double>(totalLeaves));
    if (moments.leavesDone() < totalLeaves) context.publishPartialResult(result);
  }
  return computed;
}

Presentation Convergence::present(const ConvergenceSettings& settings,
                                  const ConvergenceResult& result) const {
  const MonteCarloRequest& request = settings.request;
  const bool relative = std::isfinite(result.logExact);
  Presentation shown;
  Table& table = shown.table;
  const std::string what =
      settings.quantity == Quantity::Variance           ? "variance of K̂"
      : settings.quantity == Quantity::RelativeVariance ? "relative variance Var(K̂)/K²"
      : settings.quantity == Quantity::RelativeRmse     ? "relative RMSE √Var(K̂)/K"
                                                        : "kernel value (mean of K̂)";
  table.hints.title = "Running Monte Carlo estimate of the " + what + ", " +
                      request.mechanism->info().name + ", " + couplingId(request.coupling) +
                      ", M = " + std::to_string(request.features);
  table.hints.xColumn = "trials";
  table.hints.xLabel = "trials n";
  table.hints.xLog = true;
  table.hints.yLabel = relative ? "estimate / exact value" : "estimate (no closed form)";
  table.hints.xShortLabel = "n";
  table.hints.yShortLabel = relative ? "K̂ / K" : "K̂";
  table.addColumn("trials", "trials n", result.trials);
  table.addColumn("estimate", "Monte Carlo estimate" + std::string(relative ? " / exact" : ""),
                  result.estimate);
  table.addColumn("low", "95% band, low", result.low);
  table.addColumn("high", "95% band, high", result.high);
  table.addColumn("exact", relative ? "exact (= 1)" : "exact (not available)",
                  std::vector<double>(result.trials.size(), relative ? 1.0 : kNaN));
  table.addColumn("log-estimate", "natural log of the estimate", result.logEstimate);
  // The rate to compare the band with: the first band's half-width scaled by √(n_first / n)
  // around the exact value — where a band shrinking like 1/√n from there would be. (Anchored at
  // the first row, so that a partial table is a prefix of the final one.)
  std::vector<double> guideLow(relative ? 0 : result.trials.size(), kNaN);
  std::vector<double> guideHigh = guideLow;
  if (relative && !result.trials.empty()) {
    const double half = 0.5 * (result.high.front() - result.low.front());
    for (const double n : result.trials) {
      const double width = half * std::sqrt(result.trials.front() / n);
      guideLow.push_back(1 - width);
      guideHigh.push_back(1 + width);
    }
  }
  table.addColumn("guide-low", "1/√n guide from the first band, low", guideLow);
  table.addColumn("guide-high", "1/√n guide from the first band, high", guideHigh);
  table.hints.series = {{"Monte Carlo (95% band)", "estimate", "low", "high",
                         request.mechanism->info().id, SeriesStyle::Line, "", false}};
  if (result.heavyTail)
    table.hints.series.front().warning = "heavy tails: " + result.heavyTailReasons.front();
  if (relative)
    table.hints.series.push_back({"exact, ± a band ∝ 1/√n", "exact", "guide-low", "guide-high",
                                  "exact", SeriesStyle::Line, "", false});
  if (!relative)
    shown.warnings.push_back("no closed form for this estimator: only the estimate is shown");
  if (result.trials.size() < settings.checkpointLeaves.size() || !result.heavyTail) return shown;
  for (const auto& reason : result.heavyTailReasons)
    shown.warnings.push_back("heavy tails: " + reason);
  return shown;
}

}  // namespace rfscope
