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
#include "core/experiments/estimator_series.h"
#include "core/experiments/typed_experiment.h"

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
// train-fraction, sigma, features-unit, mechanisms, couplings, repeats, seed.
ClassifierChoices parseClassifierChoices(const ParameterSet& params);

struct ClassificationSettings : ClassifierChoices {
  ParameterSet dataParameters;  // dataset, file, label-column, labels-file
  std::vector<std::int64_t> featureValues;
};

class Classification final : public TypedExperiment<ClassificationSettings> {
 public:
  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  std::optional<MemoryEstimate> memoryEstimate(const ParameterSet& params) const override;
  ClassificationSettings parse(const ParameterSet& params) const override;

 protected:
  RunResult runWith(const ClassificationSettings& settings, RunContext& context) const override;
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

// One estimator's accuracy columns, shared by the classification experiments:
// accuracy-<key> (mean over repeats), -std, -low and -high (± one standard error of the mean),
// and disagreement-<key> (with the exact kernel's predictions).
struct AccuracyColumns {
  ColumnHandle mean, spread, low, high, disagreement;

  void append(Table& table, double accuracy, double std, double standardError,
              double disagreementValue) const;
};
// Adds them for an estimator — labelled "<Mechanism>, <Coupling> …" — and the series drawing
// accuracy-<key> with its ± band in `style`, with the estimator's legend label and colour.
AccuracyColumns addAccuracyColumns(Table& table, const EstimatorSeries& estimator,
                                   SeriesStyle style);

}  // namespace rfscope
