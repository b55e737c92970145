#include "core/experiments/classification_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/uci_datasets.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/classification_problem.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

// 1-based position of a UCI dataset in the papers' order (the `dataset` column's value).
int datasetNumber(const std::string& id) {
  const auto& all = uciDatasets();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].id == id) return static_cast<int>(i) + 1;
  return -1;
}

std::string datasetColumnLabel() {
  std::string label = "dataset:";
  const auto& all = uciDatasets();
  for (std::size_t i = 0; i < all.size(); ++i)
    label += " " + std::to_string(i + 1) + " " + all[i].id + ",";
  return label + " 0 average";
}

}  // namespace

const ExperimentInfo& ClassificationTable::info() const {
  static const ExperimentInfo info{
      "classification-table", "Kernel classification table",
      "CRT (Likhosherstov et al. 2022) / SimRF (Reid et al. 2023)",
      "CRT Table 1: test accuracy of the random-feature Gaussian-kernel classifier per dataset "
      "and mechanism at one number of features, beside the exact kernel, with the average row"};
  return info;
}

std::vector<ParameterSpec> ClassificationTable::parameters() const {
  auto datasets = multiChoiceParameter("datasets", "Datasets", uciDatasetChoices(),
                                       {"banknote", "wifi"}, "UCI datasets of the papers");
  datasets.group = "Data";
  std::vector<ParameterSpec> specs{datasets, trainFractionParameter(), sigmaChoiceParameter("0.5")};
  for (ParameterSpec& spec : oneFeatureCountParameters(16, 4, "dataset"))
    specs.push_back(std::move(spec));
  return specs;
}

std::optional<MemoryEstimate> ClassificationTable::memoryEstimate(
    const ParameterSet& params) const {
  const ClassificationTableSettings s = parse(params);
  std::optional<MemoryEstimate> largest;
  const std::size_t cells =
      s.datasets.size() * s.mechanisms.size() * s.couplings.size() * s.repeats;
  for (const std::string& id : s.datasets) {
    LabelledDataset data;
    try {
      data = loadUciDataset(id);
    } catch (const std::exception&) {
      return std::nullopt;  // crossValidate reports the data
    }
    const double features = static_cast<double>(s.features) *
                            (s.perDimension ? static_cast<double>(data.dimension()) : 1);
    MemoryEstimate estimate = classificationMemoryEstimate(s, static_cast<double>(data.size()),
                                                           features, cells, "features");
    estimate.breakdown += " (" + id + ")";
    if (!largest || estimate.bytes > largest->bytes) largest = estimate;
  }
  return largest;
}

ClassificationTableSettings ClassificationTable::parse(const ParameterSet& params) const {
  ClassificationTableSettings s;
  static_cast<ClassifierChoices&>(s) = parseClassifierChoices(params);
  for (const UciDatasetInfo& info : uciDatasets())  // the papers' order, whatever the choice order
    for (const auto& id : params.choices("datasets"))
      if (id == info.id) {
        s.datasets.push_back(id);
        break;
      }
  s.features = params.integer("features");
  return s;
}

std::vector<ParameterError> ClassificationTable::crossValidate(const ParameterSet& params) const {
  if (params.choices("datasets").empty())
    return {{"datasets", "parameter 'datasets': choose at least one dataset"}};
  const ClassificationTableSettings s = parse(params);
  return classificationErrors(params, s.mechanisms, s.couplings, false);
}

namespace {

// The average over datasets, as a last row; its band is ± the std of that average (independent
// datasets).
void appendAverageRow(ClassificationTableResult& result) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const std::size_t rows = result.dataset.size();
  const auto k = static_cast<double>(rows);
  const auto sum = [rows](const std::vector<double>& values) {
    double total = 0;
    for (std::size_t row = 0; row < rows; ++row)
      total += values[row];
    return total;
  };
  result.dataset.push_back(kAverageRowDataset);
  result.trainPoints.push_back(kNaN);
  result.features.push_back(kNaN);
  result.sigma.push_back(kNaN);
  result.exact.push_back(sum(result.exact) / k);
  for (EstimatorAccuracy& e : result.estimators) {
    double semSquared = 0;
    for (std::size_t row = 0; row < rows; ++row)
      semSquared += e.standardError[row] * e.standardError[row];
    e.mean.push_back(sum(e.mean) / k);
    e.spread.push_back(sum(e.spread) / k);
    e.standardError.push_back(std::sqrt(semSquared) / k);
    e.disagreement.push_back(sum(e.disagreement) / k);
  }
}

// An estimator no better than the majority class on a dataset, and the size of its kernel error.
std::string chanceNote(const EstimatorAccuracy& estimator, const std::string& dataset,
                       const ClassificationProblem& problem, const ClassifierScore* scores,
                       std::size_t count) {
  double mse = 0;
  for (std::size_t r = 0; r < count; ++r)
    mse += scores[r].meanSquaredError;
  mse /= static_cast<double>(count);
  const double meanSquare = problem.exactKernelSample.squaredNorm() /
                            static_cast<double>(problem.exactKernelSample.size());
  return estimator.series.name + " on " + dataset + ": accuracy " +
         shortNumber(estimator.mean.back()) +
         ", no better than always predicting the most frequent class (" +
         shortNumber(problem.majorityAccuracy) + "); its K̂'s mean squared error is " +
         shortNumber(mse / meanSquare) + " × the mean K²";
}

}  // namespace

Computed<ClassificationTableResult> ClassificationTable::compute(
    const ClassificationTableSettings& settings,
    ResultContext<ClassificationTableResult>& context) const {
  Computed<ClassificationTableResult> computed;
  ClassificationTableResult& result = computed.result;
  result.estimators = estimatorAccuracies(settings);

  // One row per dataset (its problem prepared first), one cell per (estimator, repeat).
  const std::size_t datasets = settings.datasets.size(), repeats = settings.repeats;
  const std::size_t estimators = result.estimators.size();
  ClassifierRows cells(result.estimators, datasets, repeats);
  CellWork work;
  work.prepareRow = [&](std::size_t row) {
    const LabelledDataset data = loadUciDataset(settings.datasets[row]);
    cells.prepare(row,
                  prepareClassificationProblem(data,
                                               {.trainFraction = settings.trainFraction,
                                                .seed = settings.seed,
                                                .sigma = settings.sigma},
                                               [&context] { return context.cancelled(); }),
                  settings.features * (settings.perDimension ? data.dimension() : 1));
  };
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    cells.computeCells(begin, end, context);
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      const ClassificationProblem& problem = cells.problem(row);
      result.dataset.push_back(datasetNumber(settings.datasets[row]));
      result.trainPoints.push_back(static_cast<double>(problem.train.rows()));
      result.features.push_back(static_cast<double>(cells.features(row)));
      result.sigma.push_back(problem.sigma);
      result.exact.push_back(problem.exactAccuracy);
      if (!problem.sigmaNote.empty())
        result.sigmaNotes.push_back(settings.datasets[row] + ": " + problem.sigmaNote);
      for (std::size_t s = 0; s < estimators; ++s) {
        const ClassifierScore* scores = cells.scores(row, s);
        appendAccuracy(result.estimators[s], scores, repeats);
        if (result.estimators[s].mean.back() <= problem.majorityAccuracy)
          result.chanceNotes.push_back(
              chanceNote(result.estimators[s], settings.datasets[row], problem, scores, repeats));
      }
      cells.release(row);
    }
  };
  GridRows rows{
      {&result.dataset, &result.trainPoints, &result.features, &result.sigma, &result.exact},
      [&] { context.publishPartialResult(result); }};
  for (EstimatorAccuracy& estimator : result.estimators)
    addGridColumns(estimator, rows);
  CellGrid grid;
  grid.rows = datasets;
  grid.cellsPerRow = estimators * repeats;
  computed.status = runCellGrid(context, grid, work, rows);
  if (computed.status == RunStatus::Completed) appendAverageRow(result);
  return computed;
}

Presentation ClassificationTable::present(const ClassificationTableSettings& settings,
                                          const ClassificationTableResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  // The legend names only what differs between the series, the title what they share: short
  // entries keep the legend small beside a paper-size figure.
  const std::string shared = estimatorsInCommon(settings.mechanisms, settings.couplings);
  table.hints.title =
      "Kernel classification, " + std::string(settings.perDimension ? "m/d = " : "M = ") +
      std::to_string(settings.features) + " features" + (shared.empty() ? "" : " (" + shared + ")");
  table.hints.xColumn = "dataset";
  table.hints.xLabel = "dataset";
  // CRT Table 1 as a figure: grouped bars per dataset, the x axis naming the datasets.
  table.hints.kind = PlotKind::GroupedBars;
  const auto& all = uciDatasets();
  for (std::size_t i = 0; i < all.size(); ++i)
    table.hints.xValueNames.emplace_back(datasetNumber(all[i].id), all[i].id);
  table.hints.xValueNames.emplace_back(kAverageRowDataset, "average");
  table.hints.yLabel = "test accuracy, mean ± std of the mean";
  table.hints.yShortLabel = "test accuracy";
  table.addColumn("dataset", datasetColumnLabel(), result.dataset);
  table.addColumn("train-points", "training points L", result.trainPoints);
  table.addColumn("features", "random features M", result.features);
  table.addColumn("sigma", "data scale σ", result.sigma);
  table.addColumn("accuracy-exact", "exact kernel accuracy", result.exact);
  table.hints.series.push_back(
      {"exact kernel", "accuracy-exact", "", "", "exact", SeriesStyle::Points, "", false});
  for (const EstimatorAccuracy& estimator : result.estimators)
    addAccuracyColumns(table, estimator, SeriesStyle::Points);
  shown.warnings = result.sigmaNotes;
  shown.warnings.insert(shown.warnings.end(), result.chanceNotes.begin(), result.chanceNotes.end());
  return shown;
}

}  // namespace rfscope
