#include "core/experiments/attention_features_needed.h"

#include <cctype>

#include <cmath>
#include <limits>
#include <string>

#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism.h"
#include "core/params/parameter_set.h"

namespace rfscope {
namespace {

// Where the measured error first falls to the target: M interpolated in log-log between the
// bracketing grid points (error ∝ M^-slope locally), with those points; NaN where it never does.
FeaturesNeeded measuredCrossing(const std::vector<double>& features,
                                const std::vector<double>& error, double target) {
  FeaturesNeeded c{kNaN, kNaN, kNaN, kNaN, error.back()};
  for (std::size_t k = 0; k < features.size(); ++k) {
    if (!(error[k] <= target)) continue;
    c.measuredAbove = features[k];
    if (k == 0) {  // already below at the smallest M: that M is an upper bound
      c.measured = c.measuredBelow = features[0];
      return c;
    }
    c.measuredBelow = features[k - 1];
    const double e0 = std::log(error[k - 1]), e1 = std::log(error[k]);
    const double m0 = std::log(features[k - 1]), m1 = std::log(features[k]);
    const double t = std::isfinite(e0) && e0 > e1 ? (e0 - std::log(target)) / (e0 - e1) : 1.0;
    c.measured = std::exp(m0 + t * (m1 - m0));
    return c;
  }
  return c;
}

}  // namespace

const ExperimentInfo& AttentionFeaturesNeeded::info() const {
  static const ExperimentInfo info{
      "attention-features-needed", "Features needed for linear attention", "Performer attention",
      "The smallest number of random features per mechanism and coupling for a target relative "
      "error of Performer attention: predicted from one unit of features, measured by Monte Carlo"};
  return info;
}

std::vector<ParameterSpec> AttentionFeaturesNeeded::parameters() const {
  std::vector<ParameterSpec> specs = errors_.parameters();
  for (ParameterSpec& spec : specs) {
    if (spec.key == "features-max") spec.defaultValue = std::int64_t{1024};
    if (spec.key == "features-steps") {
      spec.defaultValue = std::int64_t{8};
      spec.help = "number of M values of the Monte Carlo grid (log-spaced, rounded)";
    }
    if (spec.key == "redraws") spec.defaultValue = std::int64_t{10};
    if (spec.key == "target-error")
      spec.help = "relative output error ‖Ô - O‖/‖O‖ to reach (rms over redraws)";
  }
  return specs;
}

std::vector<ParameterError> AttentionFeaturesNeeded::crossValidate(
    const ParameterSet& params) const {
  return errors_.crossValidate(params);
}

std::optional<MemoryEstimate> AttentionFeaturesNeeded::memoryEstimate(
    const ParameterSet& params) const {
  return errors_.memoryEstimate(params);
}

ParameterSet AttentionFeaturesNeeded::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"sequence-length", std::int64_t{32}},
                         {"features-max", std::int64_t{64}},
                         {"features-steps", std::int64_t{3}},
                         {"redraws", std::int64_t{4}}});
  // Many short cells (L = 256), and little uninterruptible preparation before them.
  return defaultsWith({{"sequence-length", std::int64_t{256}},
                       {"features-max", std::int64_t{4096}},
                       {"redraws", std::int64_t{200}}});
}

AttentionErrorSettings AttentionFeaturesNeeded::parse(const ParameterSet& params) const {
  return errors_.parse(params);
}

Computed<AttentionFeaturesNeededResult> AttentionFeaturesNeeded::compute(
    const AttentionErrorSettings& settings,
    ResultContext<AttentionFeaturesNeededResult>& context) const {
  // attention-error's partial results (rows per M) are not this experiment's rows: kept back.
  ForwardingResultContext<AttentionErrorResult> forwarding(context);
  Computed<AttentionErrorResult> errors = errors_.compute(settings, forwarding);
  Computed<AttentionFeaturesNeededResult> computed;
  computed.status = errors.status;
  computed.result.errors = std::move(errors.result);
  if (computed.status != RunStatus::Completed) return computed;
  const double target = settings.targetError;
  const std::vector<double>& grid = computed.result.errors.features;
  for (const AttentionEstimatorErrors& e : computed.result.errors.estimators) {
    // The statistic the prediction names: the rms output error (the rms linearised error for
    // signed features, whose output error has no finite mean square).
    const bool positive = e.series.mechanism->info().positive;
    FeaturesNeeded needed = measuredCrossing(grid, positive ? e.outputRms : e.linearised, target);
    needed.predicted = predictedFeaturesFor(e, settings.features, target);
    computed.result.needed.push_back(needed);
  }
  return computed;
}

Presentation AttentionFeaturesNeeded::present(const AttentionErrorSettings& settings,
                                              const AttentionFeaturesNeededResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  const double target = settings.targetError;
  // "… for output error 0.25: bidirectional attention error, L = 256, d = 64, input scale 0.5".
  std::string problem = attentionProblemTitle(settings, result.errors);
  problem[0] = static_cast<char>(std::tolower(problem[0]));
  table.hints.title =
      "Features needed for output error " + formatParameterValue(target) + ": " + problem;
  table.hints.xColumn = "estimator";
  table.hints.xLabel = "mechanism, coupling";
  table.hints.yLabel =
      "random features M for relative output error " + formatParameterValue(target);
  table.hints.yShortLabel = "M for error " + formatParameterValue(target);
  table.hints.yLog = true;
  table.hints.kind = PlotKind::GroupedBars;
  const ColumnHandle estimator = table.addColumn("estimator", "mechanism × coupling (number)");
  const ColumnHandle predicted =
      table.addColumn("features-predicted", "M predicted (rms error from one unit of features)");
  const ColumnHandle measured = table.addColumn(
      "features-measured", "M measured (crossing of the rms error, log-log interpolated)");
  const ColumnHandle below =
      table.addColumn("features-measured-low", "largest grid M with the rms error above target");
  const ColumnHandle above =
      table.addColumn("features-measured-high", "smallest grid M with the rms error at or below");
  const ColumnHandle largest =
      table.addColumn("error-at-largest", "measured rms output error at the largest grid M");
  table.hints.series.push_back(
      {"predicted", "features-predicted", "", "", "truth", SeriesStyle::Points, "", false});
  table.hints.series.push_back({"measured (Monte Carlo)", "features-measured",
                                "features-measured-low", "features-measured-high", "exact",
                                SeriesStyle::Points, "", false});
  if (result.needed.empty()) return shown;  // cancelled
  const std::vector<double>& grid = result.errors.features;
  for (std::size_t index = 0; index < result.needed.size(); ++index) {
    const std::string& name = result.errors.estimators[index].series.name;
    const FeaturesNeeded& needed = result.needed[index];
    const auto number = static_cast<double>(index + 1);
    table.hints.xValueNames.emplace_back(number, name);
    table.append(estimator, number);
    table.append(predicted, needed.predicted);
    table.append(measured, needed.measured);
    table.append(below, needed.measuredBelow);
    table.append(above, needed.measuredAbove);
    table.append(largest, needed.errorAtLargest);
    if (std::isnan(needed.measured))
      shown.warnings.push_back(name + ": the measured error stays above " +
                               formatParameterValue(target) +
                               " up to M = " + countText(grid.back()) + " (raise features-max)");
    else if (needed.measuredBelow == needed.measuredAbove)
      shown.warnings.push_back(name + ": already below the target at the smallest M = " +
                               countText(grid[0]) + " (lower features-min)");
  }
  // attention-error's notes on the closed forms and the signed mechanisms.
  for (std::string& note : attentionNotes(result.errors.estimators, settings.features))
    shown.warnings.push_back(std::move(note));
  return shown;
}

}  // namespace rfscope
