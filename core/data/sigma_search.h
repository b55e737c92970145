#pragma once
// σ = auto: a coarse search of the data scale σ on a log-spaced grid, keeping the σ whose accuracy
// (on a validation split) is highest, as SimRF App. B.1 tunes σ for its classification
// experiments (it maximises the accuracy of IID PosRF at m = 10d; CRT tunes σ on a validation set
// too). The accuracy is any function of σ, so a classification experiment can plug in the
// random-feature classifier (averaged over its repeats) or the exact kernel
// (exact_kernel_classifier.h).
//
//   const TrainTestData tuning = splitAndStandardise(split.train, {.trainFraction = 0.9,
//       .seed = seed, .purpose = SplitPurpose::Validation});
//   const SigmaSearchResult best = searchSigma(
//       [&](double sigma) { return exactKernelAccuracy(tuning.train, tuning.test, sigma); });

#include <functional>
#include <vector>

namespace rfscope {

struct SigmaGrid {
  double lowest = 0.05;  // SimRF's tuned σ lie in 0.19..1.06 for the eight datasets
  double highest = 5.0;
  int points = 21;  // ratio 10^0.1 ≈ 1.26 between neighbours for the defaults
};

// `points` values from lowest to highest, equally spaced in log σ (one point: lowest). Asserts
// (RFSCOPE_EXPECTS) 0 < lowest <= highest (finite) and 1 <= points <= 1000.
std::vector<double> logSpacedSigmas(const SigmaGrid& grid);

struct SigmaSearchResult {
  double sigma = 0;                // the best σ (0 when stopped before any was evaluated)
  double accuracy = 0;             // its accuracy
  std::vector<double> sigmas;      // every σ evaluated, ascending
  std::vector<double> accuracies;  // and its accuracy
  bool complete = false;           // false when `stop` ended the search early
};

// Evaluates accuracyAt on the grid, smallest σ first. The best is the highest accuracy; among equal
// ones the smallest σ (the smoothest kernel, where random features estimate it best). A NaN
// accuracy never wins. `stop`, when given, is polled before each σ.
SigmaSearchResult searchSigma(const std::function<double(double sigma)>& accuracyAt,
                              const SigmaGrid& grid = {}, const std::function<bool()>& stop = {});

}  // namespace rfscope
