#pragma once
// CRT Fig. 2: for each σ of a grid, draw P pairs (x, y) from a regime scaled by σ, evaluate the
// exact one-feature log-variance of each mechanism, and report its mean and standard deviation over
// pairs.

#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/computed_experiment.h"
#include "core/math/kernel.h"

namespace rfscope {

class Mechanism;

struct VarianceVsSigmaSettings {
  enum class Method { Analytic, MonteCarlo, Both };
  // The kinds of value each cell holds, in column order.
  enum class ValueKind { ClosedForm, MonteCarlo };
  // What is plotted, always computed in logs: log Var; the relative variance log(Var/K²), which
  // shows where an estimator fails relative to the value it estimates; or the relative RMSE
  // √Var/K (geometric mean and ×/÷ geometric std over pairs, on a log axis).
  enum class Quantity { LogVariance, LogRelativeVariance, RelativeRmse };

  int dimension = 64;
  std::size_t pairs = 100;
  std::uint64_t seed = 1;
  RegimeSettings regime;  // the regime and what it reads for itself (its files)
  double sigmaMin = 0.1, sigmaMax = 1;
  std::vector<double> sigmas;
  std::vector<const Mechanism*> mechanisms;
  Kernel kernel = Kernel::Gaussian;
  Coupling coupling = Coupling::Iid;
  std::int64_t features = 1;
  std::int64_t trials = 2000;
  std::vector<ValueKind> kinds;
  Quantity quantity = Quantity::LogVariance;
  // Plotted relative to this mechanism (one of `mechanisms`): each pair's log value minus the
  // reference's at the same pair and σ, then mean ± std over pairs — a paired difference, whose
  // spread leaves out what both mechanisms share, so gaps of e^-3 show beside values of e^-80.
  const Mechanism* reference = nullptr;
  std::size_t referenceIndex = 0;  // in mechanisms
};

// One kind of value (closed form or Monte Carlo) of one mechanism, per σ measured so far: the
// mean and std over the pairs of the plotted quantity's log (log Var, log(Var/K²) or log(√Var/K)),
// finite values only.
struct VarianceVsSigmaSeries {
  VarianceVsSigmaSettings::ValueKind kind = VarianceVsSigmaSettings::ValueKind::ClosedForm;
  const Mechanism* mechanism = nullptr;
  std::size_t mechanismIndex = 0;  // in settings.mechanisms
  std::vector<double> mean, std;
};

struct VarianceVsSigmaResult {
  std::vector<double> sigma;                  // one per σ measured so far
  std::vector<VarianceVsSigmaSeries> series;  // kinds outermost, then mechanisms (column order)
  // (pair, σ, mechanism) cells with zero variance or no closed form, left out of mean and std.
  std::int64_t excludedCells = 0;
  std::vector<std::int64_t> heavyCells;  // per mechanism: Monte Carlo cells with heavy tails
};

class VarianceVsSigma final
    : public ComputedExperiment<VarianceVsSigmaSettings, VarianceVsSigmaResult> {
 public:
  using Method = VarianceVsSigmaSettings::Method;
  using ValueKind = VarianceVsSigmaSettings::ValueKind;
  using Quantity = VarianceVsSigmaSettings::Quantity;

  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  VarianceVsSigmaSettings parse(const ParameterSet& params) const override;
  Computed<VarianceVsSigmaResult> compute(
      const VarianceVsSigmaSettings& settings,
      ResultContext<VarianceVsSigmaResult>& context) const override;
  Presentation present(const VarianceVsSigmaSettings& settings,
                       const VarianceVsSigmaResult& result) const override;
};

}  // namespace rfscope
