#pragma once
// GeomRF+ (CRT §3.2.3): GeomRF on inputs shifted by c = min(x, y) - ε, so every feature is
// positive. Formulas and their stable forms: discrete_rf.h.

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class GeomPlusRf final : public Mechanism {
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
