#pragma once
// PoisRF (CRT Thm 3.4): Poisson-distributed ω_l; parameter λ, by default the optimum λ*.
// Formulas and their stable forms: discrete_rf.h.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class PoisRf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  ParameterSet dataDrivenParameters(SetStatisticsSource& statistics) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  bool mapsSignedInputs() const override { return false; }
};

}  // namespace rfscope
