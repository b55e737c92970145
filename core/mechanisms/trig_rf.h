#pragma once
// TrigRF (random Fourier features, RKS/FAVOR): f1 = exp(iωᵀx), f2 = exp(-iωᵀy), ω ~ N(0, I);
// the estimator Re f1 f2 = cos ωᵀ(x - y), i.e. the sin/cos feature pair of one ω.
// Var = ½ (1 - K²)², evaluated as log ½ + 2 log(-expm1(-|x - y|²)) — exact when x ≈ y.
// Under ORF it has a closed form too (SimRF eq. 26, core/couplings/trig_orthogonality.h), and
// under SimRF one with a 1-D integral (trigSimplexCovariance).

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class TrigRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  bool hasClosedForm(Coupling coupling) const override;
  Outcome<CoupledVariance> coupledLogVariance(Coupling coupling, std::int64_t features,
                                              const PairInput& pair,
                                              const VarianceResult& one) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;
};

}  // namespace rfscope
