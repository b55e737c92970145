#include "core/experiments/convergence_histogram.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/experiments/experiment_support.h"
#include "core/experiments/single_pair_estimator.h"
#include "core/montecarlo/monte_carlo_result.h"

namespace rfscope {
namespace {

// The histogram as a density over its coordinate (K̂ or log K̂).
Table histogramTable(const MonteCarloResult& mc, const MonteCarloRequest& request) {
  const Histogram& h = mc.histogram;
  Table table;
  std::ostringstream title;
  title << "Estimates of the kernel, " << request.mechanism->info().name << ", "
        << couplingId(request.coupling) << ", M = " << request.features
        << " (exact K = " << std::exp(mc.logKernelValue) << ", " << mc.trials << " trials)";
  table.hints.title = title.str();
  table.hints.xColumn = "value";
  table.hints.xLabel = h.logScale ? "ln K̂" : "K̂";
  table.hints.yLabel = "density";
  const ColumnHandle x =
      table.addColumn("value", h.logScale ? "ln K̂ (bin centre)" : "K̂ (bin centre)");
  const ColumnHandle density = table.addColumn("density", "density of the stored trials");
  const ColumnHandle counts = table.addColumn("count", "trials in the bin");
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    const double width = h.edges[b + 1] - h.edges[b];
    table.append(x, 0.5 * (h.edges[b] + h.edges[b + 1]));
    table.append(density,
                 static_cast<double>(h.counts[b]) / (static_cast<double>(h.sampleCount) * width));
    table.append(counts, static_cast<double>(h.counts[b]));
  }
  table.hints.series = {{"estimates K̂", "density", "", "", request.mechanism->info().id,
                         SeriesStyle::LineAndPoints, "", false}};
  if (mc.heavyTail)
    table.hints.series.front().warning = "heavy tails: " + mc.heavyTailReasons.front();
  // Where the estimates should centre (the exact K) and where their sample mean fell: with heavy
  // tails most of the mass sits left of both.
  const auto at = [&](double logValue, int sign) {
    return h.logScale ? logValue : sign * std::exp(logValue);
  };
  table.hints.xMarkers.push_back(
      {at(mc.logKernelValue, 1), h.logScale ? "ln K (exact)" : "K (exact)", "exact"});
  if (mc.mean.sign > 0 || !h.logScale)
    table.hints.xMarkers.push_back({at(mc.mean.logAbs, mc.mean.sign),
                                    h.logScale ? "ln (mean of K̂)" : "mean of K̂",
                                    request.mechanism->info().id});
  return table;
}

}  // namespace

const ExperimentInfo& ConvergenceHistogram::info() const {
  static const ExperimentInfo info{
      "convergence-histogram", "Histogram of estimates", "Teaching",
      "The distribution of the estimator's values K̂ at one pair: narrow and centred for light "
      "tails, a long right tail for heavy ones"};
  return info;
}

std::vector<ParameterSpec> ConvergenceHistogram::parameters() const {
  auto specs = singlePairEstimatorParameters(100000);
  auto bins = integerParameter("bins", "Bins", 60, 2, 1000, "histogram bins");
  auto stored = integerParameter("stored", "Stored trials", 100000, 100, 10000000,
                                 "trials kept (uniformly at random) for the histogram");
  bins.group = stored.group = "Sampling";
  specs.push_back(bins);
  specs.push_back(stored);
  return specs;
}

std::vector<ParameterError> ConvergenceHistogram::crossValidate(const ParameterSet& params) const {
  return singlePairEstimatorErrors(params);
}

ConvergenceHistogramSettings ConvergenceHistogram::parse(const ParameterSet& params) const {
  ConvergenceHistogramSettings s;
  s.request = singlePairRequest(params);
  s.request.histogramBins = static_cast<int>(params.integer("bins"));
  s.request.storedSamples = params.integer("stored");
  return s;
}

ParameterSet ConvergenceHistogram::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith(
        {{"d", std::int64_t{16}}, {"trials", std::int64_t{20000}}, {"stored", std::int64_t{5000}}});
  return defaultsWith({{"trials", std::int64_t{1000000000}}});
}

Computed<ConvergenceHistogramResult> ConvergenceHistogram::compute(
    const ConvergenceHistogramSettings& settings,
    ResultContext<ConvergenceHistogramResult>& context) const {
  Computed<ConvergenceHistogramResult> computed;
  const auto mc = runMonteCarloFor(
      settings.request, context,
      [&](const MonteCarloResult& partial) {
        context.publishPartialResult({partial, {}});
      },
      true);
  if (!mc) {  // validate() rules this out
    computed.result.failure = mc.reason();
    return computed;
  }
  computed.result.run = *mc;
  if (mc->cancelled) computed.status = RunStatus::Cancelled;
  return computed;
}

Presentation ConvergenceHistogram::present(const ConvergenceHistogramSettings& settings,
                                           const ConvergenceHistogramResult& result) const {
  Presentation shown;
  if (!result.run) {
    shown.warnings.push_back(result.failure);
    return shown;
  }
  shown.table = histogramTable(*result.run, settings.request);
  for (const auto& reason : result.run->heavyTailReasons)
    shown.warnings.push_back("heavy tails: " + reason);
  return shown;
}

}  // namespace rfscope
