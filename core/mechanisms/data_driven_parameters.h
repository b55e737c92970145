#pragma once
// Data-driven parameters from sets {x_i}, {y_j} (CRT §3.1-3.2): each optimum is computed from O(Ld)
// averages over all pairs, under CRT's homogeneity assumption, instead of per pair:
//   eq. (8):  mean |x_i + s y_j|² = mean|x|² + 2s (mean x)ᵀ(mean y) + mean|y|²  (A* of OPRF, GERF)
//   eq. (12): mean Σ_l x_l² y_l² = Σ_l mean(x_l²) mean(y_l²)                 (λ* of PoisRF)
//   eq. (14): mean |x_l y_l| = mean|x_l| · mean|y_l| per coordinate            (p* of GeomRF)
//   per coordinate: mean x_l², mean y_l², mean x_l, mean y_l                    (Ψ of SADERF)
//   and, for the dense-exponential features (SDERF, ADERF), the d×d second moments mean xxᵀ,
//   mean yyᵀ and the means: O(Ld²), gathered only for mechanisms that ask for them.
// Each mechanism chooses its own parameters from these statistics
// (Mechanism::dataDrivenParameters); this file computes the statistics and asks the mechanisms.

#include <map>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/mechanisms/dense_exponential.h"
#include "core/params/parameter_set.h"

namespace rfscope {

struct SetStatistics {
  int dimension = 0;
  double meanXNormSquared = 0, meanYNormSquared = 0;
  double meanSumNormSquared = 0;    // eq. (8), s = +1
  double meanDiffNormSquared = 0;   // eq. (8), s = -1
  double meanPoisStatistic = 0;     // eq. (12)
  Eigen::VectorXd meanAbsProducts;  // eq. (14)
  // Per coordinate: mean x_l², mean y_l², mean x_l, mean y_l (SADERF's diagonal maps).
  Eigen::VectorXd meanXSquares, meanYSquares, meanX, meanY;
};

SetStatistics setStatistics(const std::vector<Eigen::VectorXd>& xs,
                            const std::vector<Eigen::VectorXd>& ys);

// Per-coordinate means of two paired sets {x_i}, {y_i}, from which the statistics of the sets
// scaled by any σ > 0, and of their pairs shifted to positive entries as PoisRF+ and GeomRF+ shift
// them (x̂ = x - c, ŷ = y - c, c_l = min(x_l, y_l) - ε per pair), follow in O(d): with
// g = x - min(x, y) ≥ 0, the scaled and shifted entries are σg + ε.
class ScalableStatistics {
 public:
  // With the d×d second moments when secondMoments (O(Ld²)).
  ScalableStatistics(const std::vector<Eigen::VectorXd>& xs, const std::vector<Eigen::VectorXd>& ys,
                     bool secondMoments = false);
  SetStatistics at(double sigma) const;                         // of {σx_i}, {σy_j}
  SetStatistics shiftedAt(double sigma, double epsilon) const;  // of the shifted pairs at σ
  // The second moments of {σx_i}, {σy_j}; nullopt when not gathered.
  std::optional<DerfMoments> secondMomentsAt(double sigma) const;

 private:
  SetStatistics base_;  // at σ = 1
  std::optional<DerfMoments> secondMoments_;
  Eigen::VectorXd meanGapX_, meanGapY_, meanSquaredGapX_, meanSquaredGapY_;
};

// The statistics a mechanism asks for, each computed at most once (several mechanisms share them).
class SetStatisticsSource {
 public:
  SetStatisticsSource(const ScalableStatistics& statistics, double sigma)
      : statistics_(statistics), sigma_(sigma) {}
  const SetStatistics& plain();                  // of the sets
  const SetStatistics& shifted(double epsilon);  // of the pairs shifted as PoisRF+/GeomRF+ do
  // mean xxᵀ, mean yyᵀ and the means, or nullptr when the statistics were gathered without them.
  const DerfMoments* secondMoments();

 private:
  const ScalableStatistics& statistics_;
  double sigma_;
  std::optional<SetStatistics> plain_;
  std::map<double, SetStatistics> shifted_;  // by ε
  std::optional<std::optional<DerfMoments>> secondMoments_;
};

class Mechanism;

// The parameters a mechanism uses for every pair of the sets {x_i}, {y_j} (paired: x_i with y_i),
// chosen once from the statistics above: GERF (A, Im A, s), OPRF A*, PoisRF λ*, GeomRF p*. The
// positive variants take the statistics of the pairs shifted as they evaluate them, ε their
// default; SDERF and ADERF their matrices (as the set's attachment). Empty for mechanisms without
// free parameters.
// Whether any of the mechanisms chooses its parameters from the sets' second moments.
bool usesSecondMoments(const std::vector<const Mechanism*>& mechanisms);
ParameterSet dataDrivenParameters(const Mechanism& mechanism,
                                  const std::vector<Eigen::VectorXd>& xs,
                                  const std::vector<Eigen::VectorXd>& ys);
// The same for several mechanisms and the sets scaled by σ (statistics gathered with the second
// moments if any of them uses them).
std::vector<ParameterSet> dataDrivenParameters(const std::vector<const Mechanism*>& mechanisms,
                                               const ScalableStatistics& statistics, double sigma);

}  // namespace rfscope
