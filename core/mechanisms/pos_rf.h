#pragma once
// PosRF (FAVOR+): f(ω, x) = exp(ωᵀx - |x|²), ω ~ N(0, I).
// Var = exp(4xᵀy) - K² = K² expm1(|x + y|²), evaluated in logs. Under ORF and SimRF its
// M-feature variance has closed forms through the RF-conformity of the coupling (SimRF,
// core/couplings/positive_conformity.h).

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class PosRf final : public Mechanism {
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
