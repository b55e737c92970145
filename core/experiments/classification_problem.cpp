#include "core/experiments/classification_problem.h"

#include <algorithm>

#include "core/data/class_predictions.h"
#include "core/data/exact_kernel_classifier.h"
#include "core/data/sigma_search.h"
#include "core/data/train_test_data.h"
#include "core/experiments/experiment_support.h"
#include "core/experiments/random_feature_classifier.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// Statistics for the data-driven parameters come from at most this many training points.
constexpr Eigen::Index kStatisticsPoints = 2000;
// σ search (SimRF App. B.1): M = 10d, 10 draws; large training parts cut to 1000 + 100 points.
constexpr int kSearchFeaturesPerDimension = 10;
constexpr std::uint64_t kSearchDraws = 10;
constexpr Eigen::Index kSearchLargeTrain = 10000;
constexpr Eigen::Index kSearchCutTrain = 1000, kSearchCutTest = 100;
// Sub-stream of the seed for the σ search's feature draws.
constexpr std::uint64_t kSearchStream = 0x5167'6d61;

// Accuracy of the classifier of `map` on scaled training and test points.
double mapAccuracy(const FeatureMap& map, const Eigen::MatrixXd& train,
                   const std::vector<int>& trainLabels, int classCount, const Eigen::MatrixXd& test,
                   const std::vector<int>& testLabels) {
  const ClassScores scores = randomFeatureClassScores(map, train, trainLabels, classCount, test);
  return accuracy(argmaxClasses(scores.values), testLabels);
}

}  // namespace

double searchClassificationSigma(const LabelledDataset& standardisedTrain, std::uint64_t seed,
                                 const std::function<bool()>& stop) {
  TrainTestData tuning = splitAndStandardise(
      standardisedTrain, {.trainFraction = 0.9, .seed = seed, .purpose = SplitPurpose::Validation});
  if (tuning.train.size() > kSearchLargeTrain) {
    tuning.train = firstRows(tuning.train, kSearchCutTrain);
    tuning.test = firstRows(tuning.test, kSearchCutTest);
  }
  const Mechanism& pos = *findMechanism("pos");
  const auto d = static_cast<int>(standardisedTrain.dimension());
  FeatureMapSpec spec;
  spec.coupling = Coupling::Iid;
  spec.dimension = d;
  spec.features = std::int64_t{kSearchFeaturesPerDimension} * d;
  const SigmaSearchResult best = searchSigma(
      [&](double sigma) {
        const Eigen::MatrixXd train = sigma * tuning.train.features;
        const Eigen::MatrixXd test = sigma * tuning.test.features;
        double sum = 0;
        for (std::uint64_t draw = 0; draw < kSearchDraws; ++draw) {
          TrialStream stream(deriveSeed(seed, kSearchStream), draw);
          const auto map = pos.drawFeatureMap(spec, stream);
          sum += mapAccuracy(**map, train, tuning.train.labels, standardisedTrain.classCount(),
                             test, tuning.test.labels);
        }
        return sum / static_cast<double>(kSearchDraws);
      },
      SigmaGrid{}, stop);
  return best.complete ? best.sigma : 0.0;
}

std::optional<ClassificationProblem> prepareClassificationProblem(
    const LabelledDataset& data, const ClassificationOptions& options,
    const std::function<bool()>& stop) {
  checkLabelledDataset(data);
  const TrainTestData split =
      splitAndStandardise(data, {.trainFraction = options.trainFraction, .seed = options.seed});
  ClassificationProblem problem;
  problem.datasetName = data.name;
  problem.classCount = data.classCount();
  problem.trainLabels = split.train.labels;
  problem.testLabels = split.test.labels;
  if (options.sigma) {
    problem.sigma = *options.sigma;
  } else {
    problem.sigma = searchClassificationSigma(split.train, options.seed, stop);
    problem.sigmaSearched = true;
    if (problem.sigma == 0) return std::nullopt;
  }
  const Eigen::MatrixXd logScores =
      exactKernelLogScores(split.train.features, split.train.labels, problem.classCount,
                           split.test.features, problem.sigma, stop);
  if (logScores.size() == 0) return std::nullopt;
  problem.exactPredictions = argmaxClasses(logScores);
  problem.exactAccuracy = accuracy(problem.exactPredictions, problem.testLabels);
  problem.train = problem.sigma * split.train.features;
  problem.test = problem.sigma * split.test.features;

  const Eigen::Index sampleTest = std::min(kMseTestPoints, problem.test.rows());
  const Eigen::Index sampleTrain = std::min(kMseTrainPoints, problem.train.rows());
  problem.exactKernelSample.resize(sampleTest, sampleTrain);
  for (Eigen::Index j = 0; j < sampleTest; ++j)
    for (Eigen::Index i = 0; i < sampleTrain; ++i)
      problem.exactKernelSample(j, i) =
          std::exp(-0.5 * (problem.test.row(j) - problem.train.row(i)).squaredNorm());
  return problem;
}

FeatureMapSpec classificationFeatureSpec(const Mechanism& mechanism, Coupling coupling,
                                         std::int64_t features,
                                         const ClassificationProblem& problem) {
  FeatureMapSpec spec;
  spec.coupling = coupling;
  spec.features = features;
  spec.dimension = problem.dimension();
  // Pairs of consecutive training points (random order): the homogeneous sets of CRT §3.
  const Eigen::Index n = std::min(kStatisticsPoints, problem.train.rows());
  std::vector<Eigen::VectorXd> xs, ys;
  for (Eigen::Index i = 0; i < n; ++i) {
    xs.push_back(problem.train.row(i).transpose());
    ys.push_back(problem.train.row((i + 1) % n).transpose());
  }
  spec.parameters = dataDrivenParameters(mechanism, xs, ys);
  if (spec.parameters.contains("epsilon"))
    spec.shift = positiveShift(problem.train, problem.test, spec.parameters.real("epsilon"));
  return spec;
}

Outcome<ClassifierScore> scoreRandomFeatureClassifier(const Mechanism& mechanism,
                                                      const FeatureMapSpec& spec,
                                                      const ClassificationProblem& problem,
                                                      std::uint64_t seed, std::uint64_t draw) {
  TrialStream stream(seed, draw);
  const auto map = mechanism.drawFeatureMap(spec, stream);
  if (!map) return Outcome<ClassifierScore>::unavailable(map.reason());
  const ClassScores scores = randomFeatureClassScores(**map, problem.train, problem.trainLabels,
                                                      problem.classCount, problem.test);
  const std::vector<int> predicted = argmaxClasses(scores.values);
  ClassifierScore score;
  score.accuracy = accuracy(predicted, problem.testLabels);
  score.disagreement = disagreement(predicted, problem.exactPredictions);
  const Eigen::Index sampleTest = problem.exactKernelSample.rows();
  const Eigen::Index sampleTrain = problem.exactKernelSample.cols();
  const Eigen::MatrixXd estimates =
      kernelEstimates((*map)->queries(problem.test.topRows(sampleTest)),
                      (*map)->keys(problem.train.topRows(sampleTrain)));
  score.meanSquaredError = (estimates - problem.exactKernelSample).squaredNorm() /
                           static_cast<double>(problem.exactKernelSample.size());
  return score;
}

}  // namespace rfscope
