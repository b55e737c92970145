#pragma once
// GeomRF (CRT Thm 3.5): geometric ω_l on {0, 1, …}; parameter p, by default the numerical optimum
// p*. Formulas and their stable forms: discrete_rf.h.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class GeomRf final : public Mechanism {
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
