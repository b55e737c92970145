#include "core/experiments/classification_vs_sigma.h"

#include <cmath>
#include <limits>
#include <optional>

#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {

const ExperimentInfo& ClassificationVsSigma::info() const {
  static const ExperimentInfo info{
      "classification-vs-sigma", "Kernel classification vs σ",
      "CRT (Likhosherstov et al. 2022) / SimRF (Reid et al. 2023)",
      "Test accuracy of the random-feature Gaussian-kernel classifier per mechanism and coupling "
      "at one number of features, beside the exact kernel's, against the data scale σ: where "
      "a searched σ sits and where an estimator collapses"};
  return info;
}

std::vector<ParameterSpec> ClassificationVsSigma::parameters() const {
  std::vector<ParameterSpec> specs = classificationDatasetParameters("wifi");
  specs.push_back(trainFractionParameter());
  for (ParameterSpec& spec : sigmaGridParameters(0.05, 5, 13)) {
    spec.group = "Data";
    if (spec.key == "sigma-spacing") spec.defaultValue = std::string("log");
    specs.push_back(std::move(spec));
  }
  for (ParameterSpec& spec : oneFeatureCountParameters(128, 5, "σ"))
    specs.push_back(std::move(spec));
  return specs;
}

ClassificationVsSigmaSettings ClassificationVsSigma::parse(const ParameterSet& params) const {
  ClassificationVsSigmaSettings s;
  static_cast<ClassifierChoices&>(s) = parseClassifierChoices(params);
  s.data = parseDatasetChoice(params);
  s.features = params.integer("features");
  s.sigmaMin = params.real("sigma-min");
  s.sigmaMax = params.real("sigma-max");
  s.sigmas = sigmaGrid(s.sigmaMin, s.sigmaMax, params.integer("sigma-steps"),
                       params.choice("sigma-spacing") == "log");
  return s;
}

std::vector<ParameterError> ClassificationVsSigma::crossValidate(const ParameterSet& params) const {
  if (params.real("sigma-min") >= params.real("sigma-max"))
    return {{"sigma-max", "parameter 'sigma-max': must be larger than sigma-min"}};
  const ClassificationVsSigmaSettings s = parse(params);
  return classificationErrors(params, s.mechanisms, s.couplings, true);
}

std::optional<MemoryEstimate> ClassificationVsSigma::memoryEstimate(
    const ParameterSet& params) const {
  const ClassificationVsSigmaSettings s = parse(params);
  LabelledDataset data;
  try {
    data = loadClassificationDataset(s.data);
  } catch (const std::exception&) {
    return std::nullopt;  // crossValidate reports the data
  }
  const double features = static_cast<double>(s.features) *
                          (s.perDimension ? static_cast<double>(data.dimension()) : 1);
  const std::size_t cells = s.sigmas.size() * s.mechanisms.size() * s.couplings.size() * s.repeats;
  return classificationMemoryEstimate(s, static_cast<double>(data.size()), features, cells,
                                      "features");
}

ParameterSet ClassificationVsSigma::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"dataset", std::string("banknote")},
                         {"features", std::int64_t{16}},
                         {"sigma-steps", std::int64_t{3}},
                         {"repeats", std::int64_t{2}}});
  return defaultsWith({{"dataset", std::string("banknote")},
                       {"sigma-steps", std::int64_t{100}},
                       {"repeats", std::int64_t{200}}});
}

Computed<ClassificationVsSigmaResult> ClassificationVsSigma::compute(
    const ClassificationVsSigmaSettings& settings,
    ResultContext<ClassificationVsSigmaResult>& context) const {
  Computed<ClassificationVsSigmaResult> computed;
  ClassificationVsSigmaResult& result = computed.result;
  const LabelledDataset data = loadClassificationDataset(settings.data);
  result.dataset = data.name;
  const std::int64_t features =
      settings.features * (settings.perDimension ? static_cast<std::int64_t>(data.dimension()) : 1);
  // The same draws at every σ: each estimator's seed is the classification experiment's.
  result.estimators = estimatorAccuracies(settings);
  // One row per σ (its problem prepared first: split, scaling, exact classifier), one cell per
  // (estimator, repeat).
  const std::size_t rows = settings.sigmas.size(), repeats = settings.repeats;
  ClassifierRows cells(result.estimators, rows, repeats);
  CellWork work;
  work.prepareRow = [&](std::size_t row) {
    cells.prepare(row,
                  prepareClassificationProblem(data,
                                               {.trainFraction = settings.trainFraction,
                                                .seed = settings.seed,
                                                .sigma = settings.sigmas[row]},
                                               [&context] { return context.cancelled(); }),
                  features);
  };
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    cells.computeCells(begin, end, context);
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.sigma.push_back(settings.sigmas[row]);
      result.features.push_back(static_cast<double>(features));
      result.exact.push_back(cells.problem(row).exactAccuracy);
      for (std::size_t s = 0; s < result.estimators.size(); ++s)
        appendAccuracy(result.estimators[s], cells.scores(row, s), repeats);
      cells.release(row);
    }
  };
  GridRows gridRows{{&result.sigma, &result.features, &result.exact},
                    [&] { context.publishPartialResult(result); }};
  for (EstimatorAccuracy& estimator : result.estimators)
    addGridColumns(estimator, gridRows);
  CellGrid grid;
  grid.rows = rows;
  grid.cellsPerRow = result.estimators.size() * repeats;
  computed.status = runCellGrid(context, grid, work, gridRows);
  return computed;
}

Presentation ClassificationVsSigma::present(const ClassificationVsSigmaSettings& settings,
                                            const ClassificationVsSigmaResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  const std::string shared = estimatorsInCommon(settings.mechanisms, settings.couplings);
  table.hints.title =
      "Kernel classification vs σ, " + result.dataset + (shared.empty() ? "" : ", " + shared) +
      ", " + (settings.perDimension ? "m/d = " : "M = ") + std::to_string(settings.features);
  table.hints.xColumn = "sigma";
  table.hints.xLabel = "data scale σ";
  table.hints.xLog = true;
  table.hints.yLabel = "test accuracy, mean ± std of the mean";
  table.hints.xShortLabel = "σ";
  table.hints.yShortLabel = "test accuracy";
  table.addColumn("sigma", "data scale σ", result.sigma);
  table.addColumn("features", "random features M", result.features);
  table.addColumn("accuracy-exact", "exact kernel accuracy", result.exact);
  table.hints.series.push_back(
      {"exact kernel", "accuracy-exact", "", "", "exact", SeriesStyle::Line, "", false});
  for (const EstimatorAccuracy& estimator : result.estimators)
    addAccuracyColumns(table, estimator, SeriesStyle::LineAndPoints);
  return shown;
}

}  // namespace rfscope
