#pragma once
// CRT §5.2 / SimRF §5.3 and Fig. 8: the Gaussian-kernel classifier on a labelled dataset, with the
// kernel estimated by M random features of the chosen mechanisms × couplings, against M (or m/d):
// test accuracy (mean over draws of ω, its standard deviation and the mean ± std-of-the-mean band
// as the paper's shading), the exact kernel classifier's accuracy as a reference line, and per
// estimator the fraction of test predictions that differ from the exact kernel's and the mean
// squared error of K̂ — the bridge from estimator variance to the model.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/classification_problem.h"
#include "core/experiments/computed_experiment.h"
#include "core/experiments/estimator_series.h"

namespace rfscope {

class Mechanism;

// What both classification experiments read alike: the split, σ, the feature unit, the
// estimators and the draws.
struct ClassifierChoices {
  double trainFraction = 0.9;
  std::optional<double> sigma;  // none: searched
  bool perDimension = true;     // feature counts are m/d
  std::vector<const Mechanism*> mechanisms;
  std::vector<Coupling> couplings;
  std::size_t repeats = 10;
  std::uint64_t seed = 1;
};
// train-fraction, sigma (absent for classification-vs-sigma: none), features-unit, mechanisms,
// couplings, repeats, seed.
ClassifierChoices parseClassifierChoices(const ParameterSet& params);

struct ClassificationSettings : ClassifierChoices {
  DatasetChoice data;
  std::vector<std::int64_t> featureValues;
};

// One estimator's accuracies, one value per row: the mean over the repeats, their std, the
// standard error of the mean, and the mean fraction of predictions unlike the exact kernel's.
struct EstimatorAccuracy {
  EstimatorSeries series;
  std::vector<double> mean, spread, standardError, disagreement;
  std::uint64_t seed = 0;  // the same for every row: rows differ by their setting, not by luck
};
// The accuracies of `count` repeats whose scores start at `scores`, appended.
void appendAccuracy(EstimatorAccuracy& estimator, const ClassifierScore* scores, std::size_t count);
// The per-row vectors of an estimator, for a grid's rows (cell_runner.h).
void addGridColumns(EstimatorAccuracy& estimator, GridRows& rows);

// train-fraction (group Data): the share of the points used for training.
ParameterSpec trainFractionParameter();

// The estimator parameters of the experiments at one number of features (classification-table,
// classification-vs-sigma): features (M by default), features-unit, mechanisms (TrigRF, PosRF,
// OPRF), couplings (IID), repeats ("independent draws of the features per <row>"), seed.
std::vector<ParameterSpec> oneFeatureCountParameters(std::int64_t features, std::int64_t repeats,
                                                     const std::string& row);

// Every estimator of the choices, with the seed the classification experiments share for it: the
// same draws whatever the row (M, dataset, σ).
std::vector<EstimatorAccuracy> estimatorAccuracies(const ClassifierChoices& choices);

// The cells of a grid whose rows each have their own problem (a dataset, a σ) and number of
// features, one cell per (estimator, repeat) in that order: the estimators' feature-map specs are
// worked out once per row, and each cell's score is kept until its row is committed.
class ClassifierRows {
 public:
  ClassifierRows(const std::vector<EstimatorAccuracy>& estimators, std::size_t rows,
                 std::size_t repeats);
  // For CellWork::prepareRow; a problem left empty (its preparation was cancelled) skips the row.
  void prepare(std::size_t row, std::optional<ClassificationProblem> problem,
               std::int64_t features);
  // For CellWork::computeCells.
  void computeCells(std::size_t begin, std::size_t end, const RunContext& context);
  const ClassificationProblem& problem(std::size_t row) const { return *problems_[row]; }
  std::int64_t features(std::size_t row) const { return specs_[row].front().features; }
  // The repeats' scores of one estimator in a row (NaN where it has no feature map).
  const ClassifierScore* scores(std::size_t row, std::size_t estimator) const {
    return &scores_[(row * estimators_.size() + estimator) * repeats_];
  }
  void release(std::size_t row);  // after the row's commit

 private:
  const std::vector<EstimatorAccuracy>& estimators_;
  std::size_t repeats_;
  std::vector<std::optional<ClassificationProblem>> problems_;
  std::vector<std::vector<FeatureMapSpec>> specs_;  // per row, per estimator
  std::vector<ClassifierScore> scores_;
};

struct ClassificationResult {
  std::string dataset;  // its name
  int dimension = 0;
  std::int64_t trainPoints = 0;
  double sigma = 0;
  bool sigmaSearched = false;
  std::string sigmaNote;  // how the σ search ended, where that needs saying
  // Per M: M, m/d, the exact kernel's accuracy; per estimator its accuracies and the mean
  // squared error of K̂ (infinite where some K̂ overflowed).
  std::vector<double> features, featuresPerDimension, exact;
  std::vector<EstimatorAccuracy> estimators;
  std::vector<std::vector<double>> kernelMse;
};

class Classification final
    : public ComputedExperiment<ClassificationSettings, ClassificationResult> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ClassificationSettings parse(const ParameterSet& params) const override;
  Computed<ClassificationResult> compute(
      const ClassificationSettings& settings,
      ResultContext<ClassificationResult>& context) const override;
  Presentation present(const ClassificationSettings& settings,
                       const ClassificationResult& result) const override;
};

// Shared with classification-table: what a cell holds to classify `rows` points with M =
// `features` (the train and test points' features with their projections: measured 2.0 matrices
// of rows × width in all), times the cells that run at once (of `cells`).
MemoryEstimate classificationMemoryEstimate(const ClassifierChoices& choices, double rows,
                                            double features, std::size_t cells,
                                            const std::string& parameter);

// Shared with classification-table: errors of the data parameters, the σ text, and mechanisms ×
// couplings without feature maps.
std::vector<ParameterError> classificationErrors(const ParameterSet& params,
                                                 const std::vector<const Mechanism*>& mechanisms,
                                                 const std::vector<Coupling>& couplings,
                                                 bool checkDataset);
// A number to three significant digits, for titles ("0.251").
std::string shortNumber(double value);

// One estimator's accuracy columns, shared by the classification experiments: accuracy-<key>
// (mean over repeats), -std, -low and -high (± one standard error of the mean), and
// disagreement-<key> (with the exact kernel's predictions); and the series drawing accuracy-<key>
// with its ± band in `style`, with the estimator's legend label and colour.
void addAccuracyColumns(Table& table, const EstimatorAccuracy& estimator, SeriesStyle style);

}  // namespace rfscope
