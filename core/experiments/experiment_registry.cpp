#include "core/experiments/experiment_registry.h"

#include "core/experiments/attention_error.h"
#include "core/experiments/attention_features_needed.h"
#include "core/experiments/attention_precision.h"
#include "core/experiments/bias_variance_vs_features.h"
#include "core/experiments/classification.h"
#include "core/experiments/classification_table.h"
#include "core/experiments/classification_vs_sigma.h"
#include "core/experiments/conformity_comparison.h"
#include "core/experiments/convergence.h"
#include "core/experiments/convergence_histogram.h"
#include "core/experiments/gram_frobenius.h"
#include "core/experiments/hybrid_relative_error.h"
#include "core/experiments/mse_ratio_vs_v.h"
#include "core/experiments/pair_norm_density.h"
#include "core/experiments/pointwise_softmax.h"
#include "core/experiments/rff_regression.h"
#include "core/experiments/variance_ratio_vs_norm.h"
#include "core/experiments/variance_vs_sigma.h"

namespace rfscope {

const std::vector<const Experiment*>& allExperiments() {
  static const VarianceVsSigma varianceVsSigma;
  static const VarianceRatioVsNorm varianceRatioVsNorm;
  static const MseRatioVsV mseRatioVsV;
  static const ConformityComparison conformity;
  static const PairNormDensity wijDensity;
  static const GramFrobenius gramFrobenius;
  static const PointwiseSoftmax pointwiseSoftmax;
  static const HybridRelativeError hybridRelativeError;
  static const Convergence convergence;
  static const ConvergenceHistogram convergenceHistogram;
  static const BiasVarianceVsFeatures biasVarianceVsFeatures;
  static const Classification classification;
  static const ClassificationTable classificationTable;
  static const ClassificationVsSigma classificationVsSigma;
  static const RffRegression rffRegression;
  static const AttentionError attentionError;
  static const AttentionFeaturesNeeded attentionFeaturesNeeded;
  static const AttentionPrecision attentionPrecision;
  static const std::vector<const Experiment*> experiments{&varianceVsSigma,
                                                          &varianceRatioVsNorm,
                                                          &mseRatioVsV,
                                                          &conformity,
                                                          &wijDensity,
                                                          &gramFrobenius,
                                                          &pointwiseSoftmax,
                                                          &hybridRelativeError,
                                                          &convergence,
                                                          &convergenceHistogram,
                                                          &biasVarianceVsFeatures,
                                                          &classification,
                                                          &classificationTable,
                                                          &classificationVsSigma,
                                                          &rffRegression,
                                                          &attentionError,
                                                          &attentionFeaturesNeeded,
                                                          &attentionPrecision};
  return experiments;
}

const Experiment* findExperiment(std::string_view id) {
  for (const Experiment* experiment : allExperiments())
    if (experiment->info().id == id) return experiment;
  return nullptr;
}

}  // namespace rfscope
