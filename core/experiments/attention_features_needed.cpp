#include "core/experiments/attention_features_needed.h"

#include <cctype>

#include <cmath>
#include <limits>
#include <string>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/experiment_support.h"
#include "core/params/parameter_set.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const Experiment& attentionError() {
  return *findExperiment("attention-error");
}

// Passes cancellation and progress through to the caller; attention-error's own partial tables
// (rows per M) are not this experiment's table and are kept back.
class ForwardingContext final : public RunContext {
 public:
  explicit ForwardingContext(RunContext& outer) : outer_(outer) {}
  bool cancelled() const override { return outer_.cancelled(); }
  void reportProgress(double fraction) override { outer_.reportProgress(fraction); }
  void publishPartial(const Table&) override {}

 private:
  RunContext& outer_;
};

// The series of attention-error's table, in its order: "<mechanism>-<coupling>" and the name.
struct Category {
  std::string key, name;
};

std::vector<Category> categories(const Table& inner) {
  std::vector<Category> out;
  const std::string suffix = "-output-mean";
  for (const Column& column : inner.columns)
    if (column.key.size() > suffix.size() &&
        column.key.compare(column.key.size() - suffix.size(), suffix.size(), suffix) == 0) {
      std::string name = column.label;  // "<name> measured mean output error"
      const std::string labelSuffix = " measured mean output error";
      if (name.size() > labelSuffix.size()) name.resize(name.size() - labelSuffix.size());
      out.push_back({column.key.substr(0, column.key.size() - suffix.size()), name});
    }
  return out;
}

// Where the measured mean error first falls to the target: M interpolated in log-log between the
// bracketing grid points (error ∝ M^-slope locally), with those points; NaN where it never does.
struct Crossing {
  double features = kNaN, below = kNaN, above = kNaN;
};

Crossing measuredCrossing(const std::vector<double>& features, const std::vector<double>& error,
                          double target) {
  Crossing c;
  for (std::size_t k = 0; k < features.size(); ++k) {
    if (!(error[k] <= target)) continue;
    c.above = features[k];
    if (k == 0) {  // already below at the smallest M: that M is an upper bound
      c.features = c.below = features[0];
      return c;
    }
    c.below = features[k - 1];
    const double e0 = std::log(error[k - 1]), e1 = std::log(error[k]);
    const double m0 = std::log(features[k - 1]), m1 = std::log(features[k]);
    const double t = std::isfinite(e0) && e0 > e1 ? (e0 - std::log(target)) / (e0 - e1) : 1.0;
    c.features = std::exp(m0 + t * (m1 - m0));
    return c;
  }
  return c;
}

}  // namespace

const ExperimentInfo& AttentionFeaturesNeeded::info() const {
  static const ExperimentInfo info{
      "attention-features-needed", "Features needed for linear attention", "Performer attention",
      "The smallest number of random features per mechanism and coupling for a target relative "
      "error of Performer attention: predicted by the delta method, measured by Monte Carlo"};
  return info;
}

std::vector<ParameterSpec> AttentionFeaturesNeeded::parameters() const {
  std::vector<ParameterSpec> specs = attentionError().parameters();
  for (ParameterSpec& spec : specs) {
    if (spec.key == "features-max") spec.defaultValue = std::int64_t{1024};
    if (spec.key == "features-steps") {
      spec.defaultValue = std::int64_t{8};
      spec.help = "number of M values of the Monte Carlo grid (log-spaced, rounded)";
    }
    if (spec.key == "redraws") spec.defaultValue = std::int64_t{10};
    if (spec.key == "target-error")
      spec.help = "relative output error ‖Ô - O‖/‖O‖ to reach (mean over redraws)";
  }
  return specs;
}

std::vector<ParameterError> AttentionFeaturesNeeded::crossValidate(
    const ParameterSet& params) const {
  return attentionError().crossValidate(params);
}

std::optional<MemoryEstimate> AttentionFeaturesNeeded::memoryEstimate(
    const ParameterSet& params) const {
  return attentionError().memoryEstimate(params);
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

RunResult AttentionFeaturesNeeded::run(const ParameterSet& params, RunContext& context) const {
  ForwardingContext forwarding(context);
  RunResult inner = attentionError().run(params, forwarding);
  RunResult result;
  result.status = inner.status;
  Table& table = result.table;
  const double target = params.real("target-error");
  // "… for output error 0.25: bidirectional attention error, L = 256, d = 64, input scale 0.5".
  std::string problem = inner.table.hints.title;
  if (!problem.empty()) problem[0] = static_cast<char>(std::tolower(problem[0]));
  table.hints.title =
      "Features needed for output error " + formatParameterValue(target) + ": " + problem;
  table.hints.xColumn = "estimator";
  table.hints.xLabel = "mechanism, coupling";
  table.hints.yLabel =
      "random features M for relative output error " + formatParameterValue(target);
  table.hints.yLog = true;
  table.hints.kind = PlotKind::GroupedBars;
  const ColumnHandle estimator = table.addColumn("estimator", "mechanism × coupling (number)");
  const ColumnHandle predicted =
      table.addColumn("features-predicted", "M predicted by the delta method (i.i.d. only)");
  const ColumnHandle measured = table.addColumn(
      "features-measured", "M measured (crossing of the mean error, log-log interpolated)");
  const ColumnHandle below =
      table.addColumn("features-measured-low", "largest grid M with the mean error above target");
  const ColumnHandle above =
      table.addColumn("features-measured-high", "smallest grid M with the mean error at or below");
  const ColumnHandle largest =
      table.addColumn("error-at-largest", "measured mean output error at the largest grid M");
  table.hints.series.push_back({"predicted (delta method)", "features-predicted", "", "", "truth",
                                SeriesStyle::Points, "", false});
  table.hints.series.push_back({"measured (Monte Carlo)", "features-measured",
                                "features-measured-low", "features-measured-high", "exact",
                                SeriesStyle::Points, "", false});
  if (result.status != RunStatus::Completed) return result;

  const Column& grid = *inner.table.column("features");
  const std::vector<Category> all = categories(inner.table);
  for (std::size_t index = 0; index < all.size(); ++index) {
    const Category& category = all[index];
    const auto number = static_cast<double>(index + 1);
    table.hints.xValueNames.emplace_back(number, category.name);
    table.append(estimator, number);
    // The delta method's error at the first M, ∝ 1/√M (i.i.d.): M = M₀ ε₀² / target².
    const double predictedError = inner.table.column(category.key + "-output-predicted")->values[0];
    table.append(predicted, std::isnan(predictedError)
                                ? kNaN
                                : std::ceil(grid.values[0] * predictedError * predictedError /
                                            (target * target)));
    const std::vector<double>& error = inner.table.column(category.key + "-output-mean")->values;
    const Crossing crossing = measuredCrossing(grid.values, error, target);
    table.append(measured, crossing.features);
    table.append(below, crossing.below);
    table.append(above, crossing.above);
    table.append(largest, error.back());
    if (std::isnan(crossing.features))
      result.warnings.push_back(
          category.name + ": the measured error stays above " + formatParameterValue(target) +
          " up to M = " + countText(grid.values.back()) + " (raise features-max)");
    else if (crossing.below == crossing.above)
      result.warnings.push_back(category.name + ": already below the target at the smallest M = " +
                                countText(grid.values[0]) + " (lower features-min)");
  }
  // attention-error's notes on the delta method's validity and the signed mechanisms, less its
  // own features-needed lines (this table replaces them).
  for (const std::string& warning : inner.warnings)
    if (warning.find(": features for output error") == std::string::npos)
      result.warnings.push_back(warning);
  return result;
}

}  // namespace rfscope
