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
#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_result.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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
  s.checkpoints = static_cast<int>(params.integer("checkpoints"));
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

RunResult Convergence::runWith(const ConvergenceSettings& settings, RunContext& context) const {
  const MonteCarloRequest& request = settings.request;
  const SamplingPlan plan = *makeSamplingPlan(request);  // crossValidate checked it
  const bool variance = settings.quantity != Quantity::Kernel;
  // A variance-like quantity is a·log Var + b in logs: Var, Var/K², √Var/K.
  const double logKernel = plan.logKernelValue;
  const double a = settings.quantity == Quantity::RelativeRmse ? 0.5 : 1.0;
  const double b = settings.quantity == Quantity::RelativeVariance ? -2 * logKernel
                   : settings.quantity == Quantity::RelativeRmse   ? -logKernel
                                                                   : 0.0;

  // The exact value: the kernel, or the closed-form variance where there is one.
  double logExact = plan.logKernelValue;
  if (variance) {
    const AnalyticAnswer answer =
        evaluateAnalytic(request.withParameters(plan.parametersUsed), request.x, request.y);
    logExact = answer.variance ? a * answer.variance->logVariance + b : kNaN;
  }
  const bool relative = std::isfinite(logExact);
  const double logUnit = relative ? logExact : 0.0;

  RunResult result;
  Table& table = result.table;
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
  const ColumnHandle trialsColumn = table.addColumn("trials", "trials n");
  const ColumnHandle estimateColumn =
      table.addColumn("estimate", "Monte Carlo estimate" + std::string(relative ? " / exact" : ""));
  const ColumnHandle lowColumn = table.addColumn("low", "95% band, low");
  const ColumnHandle highColumn = table.addColumn("high", "95% band, high");
  const ColumnHandle exactColumn =
      table.addColumn("exact", relative ? "exact (= 1)" : "exact (not available)");
  const ColumnHandle logColumn = table.addColumn("log-estimate", "natural log of the estimate");
  table.hints.series = {{"Monte Carlo (95% band)", "estimate", "low", "high",
                         request.mechanism->info().id, SeriesStyle::Line, "", false}};
  if (relative)
    table.hints.series.push_back({"exact", "exact", "", "", "exact", SeriesStyle::Line, "", false});
  if (!relative)
    result.warnings.push_back("no closed form for this estimator: only the estimate is shown");

  const std::vector<std::int64_t> checkpoints =
      checkpointLeaves(request.trials, settings.checkpoints);
  const std::int64_t totalLeaves = checkpoints.back();
  MomentAccumulator total;
  std::vector<MomentAccumulator> batches(kBatchCount);
  std::vector<LeafResult> leaves;
  LeafRange range;
  range.totalTrials = request.trials;
  range.selectionThreshold = 0;  // no stored samples: the histogram is its own experiment
  tbb::enumerable_thread_specific<TrialScratch> scratch;
  std::int64_t nextLeaf = 0, leavesPerRound = 8;
  std::size_t nextCheckpoint = 0;
  bool heavy = false;
  std::vector<StoredSample> noSamples;
  using Clock = std::chrono::steady_clock;
  while (nextLeaf < totalLeaves) {
    if (stopIfCancelled(context, result)) return result;
    // Up to the next checkpoint, in rounds of about 30 ms.
    const std::int64_t count = std::min(leavesPerRound, checkpoints[nextCheckpoint] - nextLeaf);
    leaves.assign(static_cast<std::size_t>(count), LeafResult{});
    range.firstLeaf = nextLeaf;
    const auto start = Clock::now();
    const std::function<bool()> stop = [&context] { return context.cancelled(); };
    if (!parallelCells(context, leaves.size(), [&](std::size_t i) {
          runLeaf(plan, range, nextLeaf + static_cast<std::int64_t>(i), leaves[i], scratch.local(),
                  stop);
        })) {
      result.status = RunStatus::Cancelled;
      return result;
    }
    for (const auto& leaf : leaves) {
      total.merge(leaf.moments);
      batches[static_cast<std::size_t>(nextLeaf % kBatchCount)].merge(leaf.moments);
      ++nextLeaf;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    leavesPerRound = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(count * std::min(4.0, seconds > 0 ? 0.03 / seconds : 4.0)), 1,
        1 << 14);
    if (nextLeaf < checkpoints[nextCheckpoint]) continue;

    const MonteCarloResult s =
        summarize(total, batches, noSamples, {}, 0, plan.fourthMomentInfinite);
    const double n = static_cast<double>(s.trials);
    double logEstimate, low, high;
    if (variance) {
      logEstimate = a * s.logVariance + b;
      low = std::exp(a * s.logCi95Low + b - logUnit);
      high = std::exp(a * s.logCi95High + b - logUnit);
    } else {
      logEstimate = s.mean.sign > 0 ? s.mean.logAbs : kNaN;
      const double half = 1.96 * std::exp(0.5 * (s.logVariance - std::log(n)) - logUnit);
      const double centre = s.mean.value() * std::exp(-logUnit);
      low = centre - half;
      high = centre + half;
    }
    table.append(trialsColumn, n);
    table.append(estimateColumn, std::exp(logEstimate - logUnit));
    table.append(lowColumn, low);
    table.append(highColumn, high);
    table.append(exactColumn, relative ? 1.0 : kNaN);
    table.append(logColumn, logEstimate);
    heavy = s.heavyTail;
    if (heavy) {
      table.hints.series.front().warning = "heavy tails: " + s.heavyTailReasons.front();
    } else {
      table.hints.series.front().warning.clear();
    }
    ++nextCheckpoint;
    context.reportProgress(static_cast<double>(nextLeaf) / static_cast<double>(totalLeaves));
    if (nextLeaf < totalLeaves) context.publishPartial(table);
    if (nextLeaf == totalLeaves && heavy) {
      for (const auto& reason : s.heavyTailReasons)
        result.warnings.push_back("heavy tails: " + reason);
    }
  }
  return result;
}

}  // namespace rfscope
