#pragma once
// CRT Fig. 2: for each σ of a grid, draw P pairs (x, y) from a regime scaled by σ, evaluate the
// exact one-feature log-variance of each mechanism, and report its mean and standard deviation over
// pairs.

#include <cstdint>
#include <vector>

#include "core/couplings/coupling.h"
#include "core/experiments/typed_experiment.h"
#include "core/math/kernel.h"

namespace rfscope {

class Mechanism;
class Regime;

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
  const Regime* regime = nullptr;
  ParameterSet regimeParameters;  // what the regime reads for itself (its files)
  double sigmaMin = 0.1, sigmaMax = 1;
  std::vector<double> sigmas;
  std::vector<const Mechanism*> mechanisms;
  Kernel kernel = Kernel::Gaussian;
  Coupling coupling = Coupling::Iid;
  std::int64_t features = 1;
  std::int64_t trials = 2000;
  std::vector<ValueKind> kinds;
  Quantity quantity = Quantity::LogVariance;
};

class VarianceVsSigma final : public TypedExperiment<VarianceVsSigmaSettings> {
 public:
  using Method = VarianceVsSigmaSettings::Method;
  using ValueKind = VarianceVsSigmaSettings::ValueKind;
  using Quantity = VarianceVsSigmaSettings::Quantity;

  const ExperimentInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::vector<ParameterError> crossValidate(const ParameterSet& params) const override;
  ParameterSet testParameters(TestLoad load) const override;
  VarianceVsSigmaSettings parse(const ParameterSet& params) const override;

 protected:
  RunResult runWith(const VarianceVsSigmaSettings& settings, RunContext& context) const override;
};

}  // namespace rfscope
