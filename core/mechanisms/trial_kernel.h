#pragma once
// A trial shape a mechanism brings along: how one M-feature estimate of the kernel at a pair is
// sampled, for mechanisms whose features fit none of the engine's built-in samplers (the
// generalized exponential, discrete ω, the hybrids; trial_model.h). The mechanism returns it in
// its TrialModel; the Monte Carlo engine runs it on the full path, on the CPU, trial by trial —
// so a new shape is the mechanism's own files and its registration, nothing in the engine.
//
// A kernel must be deterministic: every number of trial t comes from `rng` (the trial's own
// Philox stream), so that the run's result is the same for any thread count or schedule.

#include <cstdint>

#include <Eigen/Core>

#include "core/couplings/coupling.h"
#include "core/couplings/frequencies.h"
#include "core/math/signed_log.h"
#include "core/random/trial_stream.h"

namespace rfscope {

// What a trial sees of the run: the coupling and number of features, the pair (padded to the
// coupling's dimension), and scratch memory the thread reuses across trials.
struct TrialInputs {
  Coupling coupling = Coupling::Iid;
  int dimension = 0;
  std::int64_t features = 1;
  int simplexPlusIterations = kDefaultSimplexPlusIterations;
  const Eigen::VectorXd* sum = nullptr;         // x + y
  const Eigen::VectorXd* difference = nullptr;  // x - y
  FrequencyScratch* scratch = nullptr;
};

class TrialKernel {
 public:
  virtual ~TrialKernel() = default;
  // Adds the M feature products of one trial to `total` (each as envelope and factor: the
  // product is factor · e^envelope), drawing every number from `rng`. The engine divides by M
  // and applies TrialModel::logConstant and the kernel's scale.
  virtual void addFeatureProducts(const TrialInputs& inputs, TrialStream& rng,
                                  EnvelopeSum& total) const = 0;
};

}  // namespace rfscope
