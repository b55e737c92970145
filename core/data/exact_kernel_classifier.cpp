#include "core/data/exact_kernel_classifier.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/data/class_predictions.h"
#include "core/math/contract.h"

namespace rfscope {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
constexpr Eigen::Index kTestBlock = 16;  // test points sharing one pass over a training block

// Training points per block: about 256 KiB of coordinates, so a block stays in cache while the
// test points of a block are scored against it.
Eigen::Index trainingBlock(Eigen::Index dimension) {
  return std::clamp<Eigen::Index>(32768 / std::max<Eigen::Index>(dimension, 1), 64, 4096);
}

// The training points sorted by class (stable), so each class is one contiguous run and its
// log-sum-exp vectorises.
struct ClassSortedTraining {
  Eigen::MatrixXd points;  // L × d, column-major: one coordinate of all points per column
  std::vector<Eigen::Index> classStart;  // classStart[c]..classStart[c + 1]: the points of class c
};

ClassSortedTraining sortByClass(const Eigen::MatrixXd& train, const std::vector<int>& labels,
                                int classCount) {
  std::vector<Eigen::Index> order(labels.size());
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return labels[static_cast<std::size_t>(a)] < labels[static_cast<std::size_t>(b)];
  });
  ClassSortedTraining sorted;
  sorted.points.resize(train.rows(), train.cols());
  for (Eigen::Index i = 0; i < train.rows(); ++i)
    sorted.points.row(i) = train.row(order[static_cast<std::size_t>(i)]);
  sorted.classStart.assign(static_cast<std::size_t>(classCount) + 1, 0);
  for (const int label : labels)
    ++sorted.classStart[static_cast<std::size_t>(label) + 1];
  std::partial_sum(sorted.classStart.begin(), sorted.classStart.end(), sorted.classStart.begin());
  return sorted;
}

// Scores test points [first, last) into rows of `scores`.
void scoreBlock(const ClassSortedTraining& training, const Eigen::MatrixXd& test, double sigma,
                Eigen::Index first, Eigen::Index last, Eigen::MatrixXd& scores) {
  const Eigen::Index trainCount = training.points.rows(), d = training.points.cols();
  const auto classCount = static_cast<Eigen::Index>(training.classStart.size()) - 1;
  const Eigen::Index blockSize = trainingBlock(d);
  const Eigen::Index testCount = last - first;
  const double halfSigmaSquared = 0.5 * sigma * sigma;

  // Running log-sum-exp per (test point, class): log S = runningMax + log(runningSum).
  Eigen::MatrixXd runningMax = Eigen::MatrixXd::Constant(classCount, testCount, kMinusInfinity);
  Eigen::MatrixXd runningSum = Eigen::MatrixXd::Zero(classCount, testCount);
  Eigen::MatrixXd logKernel(blockSize, testCount);  // one column per test point

  for (Eigen::Index start = 0; start < trainCount; start += blockSize) {
    const Eigen::Index size = std::min(blockSize, trainCount - start);
    for (Eigen::Index t = 0; t < testCount; ++t) {
      auto column = logKernel.col(t).head(size);
      column.setZero();
      for (Eigen::Index k = 0; k < d; ++k)
        column.array() +=
            (training.points.col(k).segment(start, size).array() - test(first + t, k)).square();
      column *= -halfSigmaSquared;
    }
    // The classes whose runs meet this block.
    auto classOf = std::upper_bound(training.classStart.begin(), training.classStart.end(), start);
    for (Eigen::Index c = (classOf - training.classStart.begin()) - 1; c < classCount; ++c) {
      const Eigen::Index runStart =
          std::max(start, training.classStart[static_cast<std::size_t>(c)]);
      const Eigen::Index runEnd =
          std::min(start + size, training.classStart[static_cast<std::size_t>(c) + 1]);
      if (runStart >= start + size) break;
      if (runEnd <= runStart) continue;
      for (Eigen::Index t = 0; t < testCount; ++t) {
        const auto run = logKernel.col(t).segment(runStart - start, runEnd - runStart);
        const double blockMax = run.maxCoeff();
        double& max = runningMax(c, t);
        double& sum = runningSum(c, t);
        if (blockMax > max) {
          sum = (max == kMinusInfinity ? 0.0 : sum * std::exp(max - blockMax));
          max = blockMax;
        }
        if (max == kMinusInfinity) continue;  // squared distances beyond a double: K = 0
        sum += (run.array() - max).exp().sum();
      }
    }
  }
  for (Eigen::Index t = 0; t < testCount; ++t)
    for (Eigen::Index c = 0; c < classCount; ++c)
      scores(first + t, c) =
          runningSum(c, t) > 0 ? runningMax(c, t) + std::log(runningSum(c, t)) : kMinusInfinity;
}

}  // namespace

Eigen::MatrixXd exactKernelLogScores(const Eigen::MatrixXd& train,
                                     const std::vector<int>& trainLabels, int classCount,
                                     const Eigen::MatrixXd& test, double sigma,
                                     const std::function<bool()>& stop) {
  RFSCOPE_EXPECTS(train.cols() == test.cols(),
                  "exactKernelLogScores: training and test points differ in dimension");
  RFSCOPE_EXPECTS(static_cast<Eigen::Index>(trainLabels.size()) == train.rows(),
                  "exactKernelLogScores: one label per training point expected");
  RFSCOPE_EXPECTS(classCount >= 1, "exactKernelLogScores: no classes");
  for (const int label : trainLabels)
    RFSCOPE_EXPECTS(label >= 0 && label < classCount,
                    "exactKernelLogScores: a label outside 0..classCount-1");
  RFSCOPE_EXPECTS(sigma > 0 && std::isfinite(sigma),
                  "exactKernelLogScores: sigma must be a positive finite number");

  const ClassSortedTraining training = sortByClass(train, trainLabels, classCount);
  Eigen::MatrixXd scores(test.rows(), classCount);
  const Eigen::Index blocks = (test.rows() + kTestBlock - 1) / kTestBlock;
  std::atomic<bool> stopped = false;
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks),
                    [&](const tbb::blocked_range<Eigen::Index>& range) {
                      for (Eigen::Index b = range.begin(); b != range.end(); ++b) {
                        if (stopped.load(std::memory_order_relaxed)) return;
                        if (stop && stop()) {
                          stopped = true;
                          return;
                        }
                        scoreBlock(training, test, sigma, b * kTestBlock,
                                   std::min(test.rows(), (b + 1) * kTestBlock), scores);
                      }
                    });
  if (stopped) return {};
  return scores;
}

std::vector<int> exactKernelPredictions(const LabelledDataset& train, const Eigen::MatrixXd& test,
                                        double sigma) {
  return argmaxClasses(
      exactKernelLogScores(train.features, train.labels, train.classCount(), test, sigma));
}

double exactKernelAccuracy(const LabelledDataset& train, const LabelledDataset& test,
                           double sigma) {
  return accuracy(exactKernelPredictions(train, test.features, sigma), test.labels);
}

}  // namespace rfscope
