#include "core/experiments/classification.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>

#include "core/data/data_error.h"
#include "core/data/dataset_split.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/classification_problem.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {

std::string shortNumber(double value) {
  std::ostringstream out;
  out << std::setprecision(3) << value;
  return out.str();
}

void appendAccuracy(EstimatorAccuracy& estimator, const ClassifierScore* scores,
                    std::size_t count) {
  std::vector<double> values(count);
  for (std::size_t r = 0; r < count; ++r)
    values[r] = scores[r].accuracy;
  const MeanAndStd accuracy = summarizeFinite(values.data(), count);
  for (std::size_t r = 0; r < count; ++r)
    values[r] = scores[r].disagreement;
  estimator.mean.push_back(accuracy.mean);
  estimator.spread.push_back(accuracy.std);
  estimator.standardError.push_back(accuracy.std / std::sqrt(static_cast<double>(count)));
  estimator.disagreement.push_back(summarizeFinite(values.data(), count).mean);
}

void addGridColumns(EstimatorAccuracy& estimator, GridRows& rows) {
  for (std::vector<double>* column :
       {&estimator.mean, &estimator.spread, &estimator.standardError, &estimator.disagreement})
    rows.columns.push_back(column);
}

ParameterSpec trainFractionParameter() {
  auto fraction = realParameter("train-fraction", "Training fraction", 0.9, 0.01, 0.99,
                                "share of the points used for training (CRT 0.9, SimRF 0.95)");
  fraction.group = "Data";
  return fraction;
}

std::vector<ParameterSpec> oneFeatureCountParameters(std::int64_t features, std::int64_t repeats,
                                                     const std::string& row) {
  auto count = integerParameter("features", "Features", features, 1, 100000,
                                "random features (M, or m/d: see features-unit)");
  auto unit = choiceParameter("features-unit", "Features unit",
                              {{"absolute", "M"}, {"per-dimension", "m/d (multiples of d)"}},
                              "absolute", "how the number of features is given");
  auto mechanisms =
      multiChoiceParameter("mechanisms", "Mechanisms", mechanismChoices(), {"trig", "pos", "oprf"},
                           "random-feature mechanisms (parameters from the data)");
  auto couplings = multiChoiceParameter("couplings", "Couplings", couplingChoices(), {"iid"},
                                        "how the frequencies are coupled");
  count.group = unit.group = mechanisms.group = couplings.group = "Estimator";
  auto draws = integerParameter("repeats", "Repeats", repeats, 2, 10000,
                                "independent draws of the features per " + row);
  draws.group = "Sampling";
  return {count, unit, mechanisms, couplings, draws, seedParameter()};
}

std::vector<EstimatorAccuracy> estimatorAccuracies(const ClassifierChoices& choices) {
  std::vector<EstimatorAccuracy> all;
  for (EstimatorSeries& series : estimatorSeries(choices.mechanisms, choices.couplings)) {
    const std::uint64_t seed =
        deriveSeed(choices.seed, series.couplingIndex, series.mechanismIndex);
    all.push_back({std::move(series), {}, {}, {}, {}, seed});
  }
  return all;
}

namespace {

// One draw's score, NaN where the estimator has no feature map for the spec.
ClassifierScore scoreOrNaN(const EstimatorAccuracy& estimator, const FeatureMapSpec& spec,
                           const ClassificationProblem& problem, std::uint64_t repeat) {
  const auto score = scoreRandomFeatureClassifier(*estimator.series.mechanism, spec, problem,
                                                  estimator.seed, repeat);
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  return score ? *score : ClassifierScore{kNaN, kNaN, kNaN};
}

}  // namespace

ClassifierRows::ClassifierRows(const std::vector<EstimatorAccuracy>& estimators, std::size_t rows,
                               std::size_t repeats)
    : estimators_(estimators),
      repeats_(repeats),
      problems_(rows),
      specs_(rows),
      scores_(rows * estimators.size() * repeats) {}

void ClassifierRows::prepare(std::size_t row, std::optional<ClassificationProblem> problem,
                             std::int64_t features) {
  problems_[row] = std::move(problem);
  if (!problems_[row]) return;
  for (const EstimatorAccuracy& estimator : estimators_)
    specs_[row].push_back(classificationFeatureSpec(
        *estimator.series.mechanism, estimator.series.coupling, features, *problems_[row]));
}

void ClassifierRows::computeCells(std::size_t begin, std::size_t end, const RunContext& context) {
  const std::size_t estimators = estimators_.size();
  for (std::size_t cell = begin; cell != end; ++cell) {
    const std::size_t row = cell / (estimators * repeats_);
    if (context.cancelled() || !problems_[row]) return;
    const std::size_t s = cell / repeats_ % estimators, r = cell % repeats_;
    scores_[cell] = scoreOrNaN(estimators_[s], specs_[row][s], *problems_[row], r);
  }
}

void ClassifierRows::release(std::size_t row) {
  problems_[row].reset();
  specs_[row].clear();
}

void addAccuracyColumns(Table& table, const EstimatorAccuracy& estimator, SeriesStyle style) {
  const std::string& key = estimator.series.key;
  const std::string& name = estimator.series.name;
  std::vector<double> low, high;
  for (std::size_t row = 0; row < estimator.mean.size(); ++row) {
    low.push_back(estimator.mean[row] - estimator.standardError[row]);
    high.push_back(estimator.mean[row] + estimator.standardError[row]);
  }
  table.addColumn("accuracy-" + key, name + " mean accuracy", estimator.mean);
  table.addColumn("accuracy-" + key + "-std", name + " accuracy std over repeats",
                  estimator.spread);
  table.addColumn("accuracy-" + key + "-low", name + " mean - std of the mean", std::move(low));
  table.addColumn("accuracy-" + key + "-high", name + " mean + std of the mean", std::move(high));
  table.addColumn("disagreement-" + key,
                  name + " fraction of predictions unlike the exact kernel's",
                  estimator.disagreement);
  table.hints.series.push_back({estimator.series.label, "accuracy-" + key,
                                "accuracy-" + key + "-low", "accuracy-" + key + "-high",
                                estimator.series.colorKey, style, "", false});
}

std::vector<ParameterError> classificationErrors(const ParameterSet& params,
                                                 const std::vector<const Mechanism*>& mechanisms,
                                                 const std::vector<Coupling>& couplings,
                                                 bool checkDataset) {
  try {
    if (params.find("sigma")) parseSigmaChoice(params.choice("sigma"));  // classification-vs-sigma
  } catch (const InvalidParameter& e) {                                  // has a grid instead
    return {{e.parameter(), e.what()}};
  }
  // Every mechanism must have a feature map under every coupling (checked on generic points).
  const int probeDimension = 4;
  const Eigen::MatrixXd probe = Eigen::MatrixXd::Constant(2, probeDimension, 0.1);
  ClassificationProblem generic;
  generic.train = generic.test = probe;
  for (const Mechanism* mechanism : mechanisms)
    for (const Coupling coupling : couplings) {
      TrialStream stream(0, 0);
      const auto map = mechanism->drawFeatureMap(
          classificationFeatureSpec(*mechanism, coupling, probeDimension, generic), stream);
      if (!map)
        return {{"couplings", "parameter 'couplings': " + mechanism->info().id + " under " +
                                  couplingId(coupling) + ": " + map.reason()}};
    }
  if (!checkDataset) return {};
  try {
    const LabelledDataset data = loadClassificationDataset(params);
    checkLabelledDataset(data);
    for (const Coupling coupling : couplings)
      if (const std::string problem =
              couplingDimensionProblem(coupling, static_cast<int>(data.dimension()));
          !problem.empty())
        return {{"couplings", "parameter 'couplings': " + problem + "; the dataset has " +
                                  std::to_string(data.dimension()) + " feature" +
                                  (data.dimension() == 1 ? "" : "s")}};
    trainingCount(static_cast<std::size_t>(data.size()), params.real("train-fraction"));
  } catch (const DataError& e) {
    return {{e.parameter(), e.what()}};
  }
  return {};
}

const ExperimentInfo& Classification::info() const {
  static const ExperimentInfo info{
      "classification", "Kernel classification vs features",
      "CRT (Likhosherstov et al. 2022) / SimRF (Reid et al. 2023)",
      "CRT §5.2, SimRF Fig. 8: test accuracy of the Gaussian-kernel classifier on a labelled "
      "dataset with the kernel estimated by random features, against their number, beside the "
      "exact kernel; disagreement with the exact classifier and the MSE of K̂"};
  return info;
}

std::vector<ParameterSpec> Classification::parameters() const {
  std::vector<ParameterSpec> specs = classificationDatasetParameters("banknote");
  specs.push_back(trainFractionParameter());
  specs.push_back(sigmaChoiceParameter("0.5"));
  auto features = textParameter("features", "Features", "1,2,4,10",
                                "feature counts, comma-separated (m/d or M, see features-unit)");
  auto unit = choiceParameter("features-unit", "Features unit",
                              {{"per-dimension", "m/d (multiples of d)"}, {"absolute", "M"}},
                              "per-dimension", "how the feature counts are given");
  auto mechanisms = multiChoiceParameter("mechanisms", "Mechanisms", mechanismChoices(), {"pos"},
                                         "random-feature mechanisms (parameters from the data)");
  auto couplings = multiChoiceParameter("couplings", "Couplings", couplingChoices(),
                                        {"iid", "orf", "simrf"}, "how the frequencies are coupled");
  features.group = unit.group = mechanisms.group = couplings.group = "Estimator";
  auto repeats = integerParameter("repeats", "Repeats", 10, 2, 10000,
                                  "independent draws of the features per M");
  repeats.group = "Sampling";
  specs.insert(specs.end(), {features, unit, mechanisms, couplings, repeats, seedParameter()});
  return specs;
}

ClassifierChoices parseClassifierChoices(const ParameterSet& params) {
  ClassifierChoices s;
  s.trainFraction = params.real("train-fraction");
  if (params.find("sigma")) s.sigma = parseSigmaChoice(params.choice("sigma"));
  s.perDimension = params.choice("features-unit") == "per-dimension";
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  s.repeats = static_cast<std::size_t>(params.integer("repeats"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

ClassificationSettings Classification::parse(const ParameterSet& params) const {
  ClassificationSettings s;
  static_cast<ClassifierChoices&>(s) = parseClassifierChoices(params);
  s.data = parseDatasetChoice(params);
  s.featureValues = parseFeatureList(params.choice("features"), "features");
  return s;
}

std::vector<ParameterError> Classification::crossValidate(const ParameterSet& params) const {
  try {
    parseFeatureList(params.choice("features"), "features");
  } catch (const InvalidParameter& e) {
    return {{e.parameter(), e.what()}};
  }
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  for (const auto& id : params.choices("mechanisms"))
    mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    couplings.push_back(parseCoupling(id, "couplings"));
  return classificationErrors(params, mechanisms, couplings, true);
}

MemoryEstimate classificationMemoryEstimate(const ClassifierChoices& choices, double rows,
                                            double features, std::size_t cells,
                                            const std::string& parameter) {
  return featureMatricesEstimate(cells, 2.2, rows, "points", features, choices.mechanisms,
                                 parameter);
}

std::optional<MemoryEstimate> Classification::memoryEstimate(const ParameterSet& params) const {
  const ClassificationSettings s = parse(params);
  LabelledDataset data;
  try {
    data = loadClassificationDataset(s.data);
  } catch (const std::exception&) {
    return std::nullopt;  // crossValidate reports the data
  }
  std::int64_t largest = 0;
  for (const std::int64_t value : s.featureValues)
    largest = std::max(largest, value);
  const double features =
      static_cast<double>(largest) * (s.perDimension ? static_cast<double>(data.dimension()) : 1);
  const std::size_t cells =
      s.featureValues.size() * s.mechanisms.size() * s.couplings.size() * s.repeats;
  return classificationMemoryEstimate(s, static_cast<double>(data.size()), features, cells,
                                      "features");
}

namespace {

// The mean squared error of K̂ over the repeats; an overflowing K̂ (inf) makes it infinite rather
// than dropping the draw.
double meanKernelError(const ClassifierScore* scores, std::size_t count) {
  std::vector<double> values(count);
  for (std::size_t r = 0; r < count; ++r)
    values[r] = scores[r].meanSquaredError;
  const MeanAndStd mse = summarizeFinite(values.data(), count);
  return mse.excluded ? std::numeric_limits<double>::infinity() : mse.mean;
}

}  // namespace

Computed<ClassificationResult> Classification::compute(
    const ClassificationSettings& settings, ResultContext<ClassificationResult>& context) const {
  Computed<ClassificationResult> computed;
  ClassificationResult& result = computed.result;
  const LabelledDataset data = loadClassificationDataset(settings.data);
  const auto stop = [&context] { return context.cancelled(); };
  const auto prepared = prepareClassificationProblem(
      data,
      {.trainFraction = settings.trainFraction, .seed = settings.seed, .sigma = settings.sigma},
      stop);
  if (!prepared) {
    computed.status = RunStatus::Cancelled;
    return computed;
  }
  const ClassificationProblem& problem = *prepared;
  const int d = problem.dimension();
  result.dataset = data.name;
  result.dimension = d;
  result.trainPoints = problem.train.rows();
  result.sigma = problem.sigma;
  result.sigmaSearched = problem.sigmaSearched;
  result.sigmaNote = problem.sigmaNote;
  std::vector<std::int64_t> features;
  for (const std::int64_t value : settings.featureValues)
    features.push_back(settings.perDimension ? value * d : value);
  std::vector<FeatureMapSpec> specs;
  result.estimators = estimatorAccuracies(settings);
  for (const EstimatorAccuracy& estimator : result.estimators)
    specs.push_back(classificationFeatureSpec(*estimator.series.mechanism,
                                              estimator.series.coupling, 1, problem));
  result.kernelMse.resize(result.estimators.size());

  // One row per M, one cell per (estimator, repeat).
  const std::size_t estimators = result.estimators.size(), repeats = settings.repeats;
  std::vector<ClassifierScore> scores(features.size() * estimators * repeats);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (estimators * repeats);
      const std::size_t s = cell / repeats % estimators, r = cell % repeats;
      FeatureMapSpec spec = specs[s];
      spec.features = features[row];
      scores[cell] = scoreOrNaN(result.estimators[s], spec, problem, r);
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.features.push_back(static_cast<double>(features[row]));
      result.featuresPerDimension.push_back(static_cast<double>(features[row]) / d);
      result.exact.push_back(problem.exactAccuracy);
      for (std::size_t s = 0; s < estimators; ++s) {
        const ClassifierScore* cells = &scores[(row * estimators + s) * repeats];
        appendAccuracy(result.estimators[s], cells, repeats);
        result.kernelMse[s].push_back(meanKernelError(cells, repeats));
      }
    }
  };
  GridRows rows{{&result.features, &result.featuresPerDimension, &result.exact},
                [&] { context.publishPartialResult(result); }};
  for (std::size_t s = 0; s < estimators; ++s) {
    addGridColumns(result.estimators[s], rows);
    rows.columns.push_back(&result.kernelMse[s]);
  }
  CellGrid grid;
  grid.rows = features.size();
  grid.cellsPerRow = estimators * repeats;
  grid.distributable = true;  // commitRows writes the result's rows only
  computed.status = runCellGrid(context, grid, work, rows);
  return computed;
}

Presentation Classification::present(const ClassificationSettings& settings,
                                     const ClassificationResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  const std::string shared = estimatorsInCommon(settings.mechanisms, settings.couplings);
  table.hints.title =
      "Kernel classification, " + result.dataset + (shared.empty() ? "" : ", " + shared) +
      " (d = " + std::to_string(result.dimension) + ", L = " + std::to_string(result.trainPoints) +
      ", σ = " + shortNumber(result.sigma) + (result.sigmaSearched ? " searched" : "") + ")";
  table.hints.xColumn = settings.perDimension ? "features-per-dimension" : "features";
  table.hints.xLabel =
      settings.perDimension ? "random features per dimension m/d" : "random features M";
  table.hints.yLabel = "test accuracy, mean ± std of the mean";
  table.hints.xShortLabel = settings.perDimension ? "m/d" : "M";
  table.hints.yShortLabel = "test accuracy";
  table.addColumn("features", "random features M", result.features);
  table.addColumn("features-per-dimension", "random features per dimension m/d",
                  result.featuresPerDimension);
  table.addColumn("accuracy-exact", "exact kernel accuracy", result.exact);
  table.hints.series.push_back(
      {"exact kernel", "accuracy-exact", "", "", "exact", SeriesStyle::Line, "", false});
  for (std::size_t s = 0; s < result.estimators.size(); ++s) {
    const EstimatorAccuracy& estimator = result.estimators[s];
    addAccuracyColumns(table, estimator, SeriesStyle::LineAndPoints);
    // After the accuracy columns: the CSV keeps its column order.
    table.addColumn("mse-" + estimator.series.key,
                    estimator.series.name + " mean squared error of K̂", result.kernelMse[s]);
  }
  if (result.sigmaSearched)
    shown.warnings.push_back("σ = " + shortNumber(result.sigma) +
                             " searched on a validation split (IID PosRF, m = 10d)");
  if (!result.sigmaNote.empty()) shown.warnings.push_back(result.sigmaNote);
  return shown;
}

}  // namespace rfscope
