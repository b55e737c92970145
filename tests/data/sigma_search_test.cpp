#include "core/data/sigma_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/data/exact_kernel_classifier.h"
#include "core/data/train_test_data.h"
#include "core/data/uci_datasets.h"

namespace rfscope {
namespace {

TEST(SigmaSearch, LogSpacedGrid) {
  const std::vector<double> sigmas = logSpacedSigmas({0.01, 100, 5});
  ASSERT_EQ(sigmas.size(), 5u);
  const double expected[] = {0.01, 0.1, 1, 10, 100};
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_NEAR(sigmas[k], expected[k], 1e-14 * expected[k]);
  EXPECT_EQ(logSpacedSigmas({0.5, 0.5, 1}), std::vector<double>{0.5});
  EXPECT_EQ(logSpacedSigmas({}).size(), 21u);
}

// Misuse is asserted (README, "Errors"), in every build type.
TEST(SigmaSearchDeathTest, AssertsAValidGrid) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(logSpacedSigmas({0, 1, 3}), "sigma grid");
  EXPECT_DEATH(logSpacedSigmas({2, 1, 3}), "sigma grid");
  EXPECT_DEATH(logSpacedSigmas({1, 2, 0}), "sigma grid");
}

TEST(SigmaSearch, FindsThePeakAndPrefersTheSmallestOfEqualAccuracies) {
  // A peak at σ = 1 in log σ: the grid point nearest to it wins.
  const auto peaked = [](double sigma) { return 1.0 / (1.0 + std::pow(std::log(sigma), 2)); };
  const SigmaSearchResult result = searchSigma(peaked, {0.01, 100, 9});
  EXPECT_TRUE(result.complete);
  EXPECT_NEAR(result.sigma, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(result.accuracy, 1.0);
  EXPECT_EQ(result.sigmas.size(), 9u);
  EXPECT_EQ(result.accuracies.size(), 9u);
  // A plateau: the smallest σ on it.
  const auto plateau = [](double sigma) { return sigma < 0.3 ? 0.5 : (sigma < 3 ? 0.8 : 0.6); };
  EXPECT_NEAR(searchSigma(plateau, {0.01, 100, 9}).sigma, std::sqrt(0.1), 1e-12);
  // NaN never wins.
  const auto withNan = [](double sigma) { return sigma < 1 ? std::nan("") : 0.1 * sigma; };
  EXPECT_NEAR(searchSigma(withNan, {0.01, 100, 9}).sigma, 100, 1e-10);
}

TEST(SigmaSearch, StopsBeforeTheNextSigma) {
  int evaluated = 0;
  const SigmaSearchResult result = searchSigma([&](double) { return ++evaluated; }, {0.1, 10, 10},
                                               [&] { return evaluated == 3; });
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(evaluated, 3);
  EXPECT_EQ(result.sigmas.size(), 3u);
  EXPECT_EQ(result.accuracy, 3);
}

// σ = auto with the exact classifier on a validation split of banknote's training part: the best
// σ is the grid point of the highest validation accuracy, and that accuracy is high.
TEST(SigmaSearch, WithTheExactClassifierOnAValidationSplit) {
  const TrainTestData split = splitAndStandardise(loadUciDataset("banknote"), {.seed = 3});
  const TrainTestData tuning = splitAndStandardise(
      split.train, {.trainFraction = 0.9, .seed = 3, .purpose = SplitPurpose::Validation});
  const SigmaSearchResult best = searchSigma(
      [&](double sigma) { return exactKernelAccuracy(tuning.train, tuning.test, sigma); },
      {0.05, 5, 11});
  ASSERT_TRUE(best.complete);
  for (std::size_t k = 0; k < best.sigmas.size(); ++k) {
    std::printf("banknote validation: sigma %.4f accuracy %.4f\n", best.sigmas[k],
                best.accuracies[k]);
    EXPECT_LE(best.accuracies[k], best.accuracy);
  }
  EXPECT_GT(best.accuracy, 0.98);
  // The smallest σ (a nearly flat kernel) does clearly worse: the search has something to find.
  EXPECT_LT(best.accuracies.front(), best.accuracy - 0.05);
  std::printf("banknote: sigma = auto chose %.4f (validation accuracy %.4f); test accuracy %.4f\n",
              best.sigma, best.accuracy, exactKernelAccuracy(split.train, split.test, best.sigma));
}

}  // namespace
}  // namespace rfscope
