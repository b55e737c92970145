#include "core/experiments/classification_problem.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <iomanip>
#include <sstream>

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

namespace {

std::string shortSigma(double sigma) {
  std::ostringstream out;
  out << std::setprecision(3) << sigma;
  return out.str();
}

// The share of the most frequent label: what always predicting one class scores.
double majorityShare(const std::vector<int>& labels) {
  std::vector<std::size_t> counts;
  for (const int label : labels) {
    if (static_cast<std::size_t>(label) >= counts.size())
      counts.resize(static_cast<std::size_t>(label) + 1);
    ++counts[static_cast<std::size_t>(label)];
  }
  const std::size_t most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  return labels.empty() ? 0 : static_cast<double>(most) / static_cast<double>(labels.size());
}

// A best σ at an end of the grid: the decade beyond it searched too, and the better of the two.
SigmaChoice widenedAtAnEnd(const SigmaSearchResult& first, const SigmaGrid& grid,
                           const std::function<double(double)>& accuracyAt,
                           const std::function<bool()>& stop) {
  const bool low = first.sigma == grid.lowest;
  const SigmaGrid beyond = low ? SigmaGrid{grid.lowest / 10, grid.lowest, 11}
                               : SigmaGrid{grid.highest, grid.highest * 10, 11};
  const SigmaSearchResult second = searchSigma(accuracyAt, beyond, stop);
  if (!second.complete) return {};
  const bool better = second.accuracy > first.accuracy;
  const double sigma = better ? second.sigma : first.sigma;
  const double end = low ? beyond.lowest : beyond.highest;
  std::string note =
      "the σ search's best was at the end of its grid (σ = " + shortSigma(first.sigma) +
      "); widened to " + shortSigma(end) + ": σ = " + shortSigma(sigma);
  if (sigma == end) note += ", again at the end (the search has no interior maximum)";
  return {sigma, note};
}

}  // namespace

SigmaChoice searchClassificationSigma(const LabelledDataset& standardisedTrain, std::uint64_t seed,
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
  const auto posAccuracy = [&](double sigma) {
    const Eigen::MatrixXd train = sigma * tuning.train.features;
    const Eigen::MatrixXd test = sigma * tuning.test.features;
    // The draws in parallel (the search's one serial stretch in an experiment), summed in order.
    std::array<double, kSearchDraws> accuracies{};
    tbb::parallel_for(std::uint64_t{0}, kSearchDraws, [&](std::uint64_t draw) {
      TrialStream stream(deriveSeed(seed, kSearchStream), draw);
      const auto map = pos.drawFeatureMap(spec, stream);
      accuracies[draw] = mapAccuracy(**map, train, tuning.train.labels,
                                     standardisedTrain.classCount(), test, tuning.test.labels);
    });
    double sum = 0;
    for (const double value : accuracies)
      sum += value;
    return sum / static_cast<double>(kSearchDraws);
  };
  const SigmaGrid grid;
  const SigmaSearchResult best = searchSigma(posAccuracy, grid, stop);
  if (!best.complete) return {};
  const double majority = majorityShare(tuning.test.labels);
  if (best.accuracy <= majority + 1e-12) {
    const SigmaSearchResult exact = searchSigma(
        [&](double sigma) { return exactKernelAccuracy(tuning.train, tuning.test, sigma); }, grid,
        stop);
    if (!exact.complete) return {};
    std::string note =
        "IID PosRF's validation accuracy never beats always predicting the most "
        "frequent class (" +
        shortSigma(best.accuracy) + " at best, majority " + shortSigma(majority) + ", σ from " +
        shortSigma(grid.lowest) + " to " + shortSigma(grid.highest) +
        "): σ = " + shortSigma(exact.sigma) +
        " chosen by the exact kernel's validation accuracy (" + shortSigma(exact.accuracy) +
        ") instead";
    if (exact.accuracy <= majority + 1e-12) note += ", which does no better";
    return {exact.sigma, note};
  }
  if (best.sigma == grid.lowest || best.sigma == grid.highest)
    return widenedAtAnEnd(best, grid, posAccuracy, stop);
  return {best.sigma, ""};
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
    const SigmaChoice choice = searchClassificationSigma(split.train, options.seed, stop);
    problem.sigma = choice.sigma;
    problem.sigmaNote = choice.note;
    problem.sigmaSearched = true;
    if (problem.sigma == 0) return std::nullopt;
  }
  const Eigen::MatrixXd logScores =
      exactKernelLogScores(split.train.features, split.train.labels, problem.classCount,
                           split.test.features, problem.sigma, stop);
  if (logScores.size() == 0) return std::nullopt;
  problem.exactPredictions = argmaxClasses(logScores);
  problem.exactAccuracy = accuracy(problem.exactPredictions, problem.testLabels);
  problem.majorityAccuracy = majorityShare(problem.testLabels);
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
  // The training points' features reduced to per-class sums; the first ones (the MSE pairs') kept
  // for the kernel estimates: the same bits as mapping those rows alone.
  const Eigen::Index sampleTest = problem.exactKernelSample.rows();
  const Eigen::Index sampleTrain = problem.exactKernelSample.cols();
  FeatureMatrix firstKeys;
  const ClassFeatureSums classes = classFeatureSums(**map, problem.train, problem.trainLabels,
                                                    problem.classCount, &firstKeys, sampleTrain);
  const FeatureMatrix queries = (*map)->queries(problem.test);
  const ClassScores scores = classScores(classes, queries);
  const std::vector<int> predicted = argmaxClasses(scores.values);
  ClassifierScore score;
  score.accuracy = accuracy(predicted, problem.testLabels);
  score.disagreement = disagreement(predicted, problem.exactPredictions);
  const Eigen::MatrixXd estimates = kernelEstimates(
      {queries.values.topRows(sampleTest), queries.logScale.head(sampleTest)}, firstKeys);
  score.meanSquaredError = (estimates - problem.exactKernelSample).squaredNorm() /
                           static_cast<double>(problem.exactKernelSample.size());
  return score;
}

}  // namespace rfscope
