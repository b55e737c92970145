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
  auto fraction = realParameter("train-fraction", "Training fraction", 0.9, 0.01, 0.99,
                                "share of the points used for training (CRT 0.9, SimRF 0.95)");
  datasets.group = fraction.group = "Data";
  auto features = integerParameter("features", "Features", 16, 1, 100000,
                                   "random features (M, or m/d: see features-unit)");
  auto unit = choiceParameter("features-unit", "Features unit",
                              {{"absolute", "M"}, {"per-dimension", "m/d (multiples of d)"}},
                              "absolute", "how the number of features is given");
  auto mechanisms =
      multiChoiceParameter("mechanisms", "Mechanisms", mechanismChoices(), {"trig", "pos", "oprf"},
                           "random-feature mechanisms (parameters from the data)");
  auto couplings = multiChoiceParameter("couplings", "Couplings", couplingChoices(), {"iid"},
                                        "how the frequencies are coupled");
  features.group = unit.group = mechanisms.group = couplings.group = "Estimator";
  auto repeats = integerParameter("repeats", "Repeats", 4, 2, 10000,
                                  "independent draws of the features per dataset");
  repeats.group = "Sampling";
  return {datasets,  fraction, sigmaChoiceParameter("0.5"),
          features,  unit,     mechanisms,
          couplings, repeats,  seedParameter()};
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

RunResult ClassificationTable::runWith(const ClassificationTableSettings& settings,
                                       RunContext& context) const {
  RunResult result;
  Table& table = result.table;
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
  const ColumnHandle datasetColumn = table.addColumn("dataset", datasetColumnLabel());
  const ColumnHandle trainColumn = table.addColumn("train-points", "training points L");
  const ColumnHandle featureColumn = table.addColumn("features", "random features M");
  const ColumnHandle sigmaColumn = table.addColumn("sigma", "data scale σ");
  const ColumnHandle exactColumn = table.addColumn("accuracy-exact", "exact kernel accuracy");
  table.hints.series.push_back(
      {"exact kernel", "accuracy-exact", "", "", "exact", SeriesStyle::Points, "", false});

  struct Series {
    const Mechanism* mechanism;
    Coupling coupling;
    std::uint64_t seed;  // as the classification experiment's for the same choices
    AccuracyColumns accuracy;
  };
  std::vector<Series> series;
  for (std::size_t m = 0; m < settings.mechanisms.size(); ++m)
    for (std::size_t c = 0; c < settings.couplings.size(); ++c) {
      const Mechanism& mechanism = *settings.mechanisms[m];
      const Coupling coupling = settings.couplings[c];
      const Series s{&mechanism, coupling, deriveSeed(settings.seed, c, m),
                     addAccuracyColumns(table, mechanism, coupling, settings.mechanisms.size(),
                                        settings.couplings.size(), SeriesStyle::Points)};
      series.push_back(s);
    }

  // One row per dataset (its problem prepared first), one cell per (series, repeat).
  const std::size_t datasets = settings.datasets.size(), repeats = settings.repeats;
  std::vector<std::optional<ClassificationProblem>> problems(datasets);
  std::vector<std::int64_t> features(datasets);
  std::vector<ClassifierScore> scores(datasets * series.size() * repeats);
  CellWork work;
  work.prepareRow = [&](std::size_t row) {
    const LabelledDataset data = loadUciDataset(settings.datasets[row]);
    problems[row] = prepareClassificationProblem(
        data,
        {.trainFraction = settings.trainFraction, .seed = settings.seed, .sigma = settings.sigma},
        [&context] { return context.cancelled(); });
    features[row] = settings.features * (settings.perDimension ? data.dimension() : 1);
  };
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      const std::size_t row = cell / (series.size() * repeats);
      if (context.cancelled() || !problems[row]) return;
      const std::size_t s = cell / repeats % series.size(), r = cell % repeats;
      const Series& estimator = series[s];
      const FeatureMapSpec spec = classificationFeatureSpec(
          *estimator.mechanism, estimator.coupling, features[row], *problems[row]);
      const auto score = scoreRandomFeatureClassifier(*estimator.mechanism, spec, *problems[row],
                                                      estimator.seed, r);
      constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
      scores[cell] = score ? *score : ClassifierScore{kNaN, kNaN, kNaN};
    }
  };
  // Per series, the running sums for the average row: means, variances of the means, stds.
  std::vector<double> sumMean(series.size()), sumSemSquared(series.size()), sumStd(series.size()),
      sumDisagreement(series.size());
  double sumExact = 0;
  std::vector<double> values(repeats);
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      const ClassificationProblem& problem = *problems[row];
      table.append(datasetColumn, datasetNumber(settings.datasets[row]));
      table.append(trainColumn, static_cast<double>(problem.train.rows()));
      table.append(featureColumn, static_cast<double>(features[row]));
      table.append(sigmaColumn, problem.sigma);
      table.append(exactColumn, problem.exactAccuracy);
      sumExact += problem.exactAccuracy;
      for (std::size_t s = 0; s < series.size(); ++s) {
        const std::size_t base = (row * series.size() + s) * repeats;
        for (std::size_t r = 0; r < repeats; ++r)
          values[r] = scores[base + r].accuracy;
        const MeanAndStd accuracy = summarizeFinite(values.data(), repeats);
        for (std::size_t r = 0; r < repeats; ++r)
          values[r] = scores[base + r].disagreement;
        const double disagreement = summarizeFinite(values.data(), repeats).mean;
        const double sem = accuracy.std / std::sqrt(static_cast<double>(repeats));
        series[s].accuracy.append(table, accuracy.mean, accuracy.std, sem, disagreement);
        sumMean[s] += accuracy.mean;
        sumSemSquared[s] += sem * sem;
        sumStd[s] += accuracy.std;
        sumDisagreement[s] += disagreement;
      }
    }
  };
  CellGrid grid;
  grid.rows = datasets;
  grid.cellsPerRow = series.size() * repeats;
  result.status = runCellGrid(context, grid, work, table);
  if (result.status != RunStatus::Completed) return result;

  // The average over datasets; its band is ± the std of that average (independent datasets).
  const auto k = static_cast<double>(datasets);
  table.append(datasetColumn, kAverageRowDataset);
  table.append(trainColumn, std::numeric_limits<double>::quiet_NaN());
  table.append(featureColumn, std::numeric_limits<double>::quiet_NaN());
  table.append(sigmaColumn, std::numeric_limits<double>::quiet_NaN());
  table.append(exactColumn, sumExact / k);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double mean = sumMean[s] / k, sem = std::sqrt(sumSemSquared[s]) / k;
    series[s].accuracy.append(table, mean, sumStd[s] / k, sem, sumDisagreement[s] / k);
  }
  return result;
}

}  // namespace rfscope
