#pragma once
// MaclaurinRF (maclaurin): random Maclaurin features of e^{xᵀy} (Kar & Karnick 2012), a
// non-exponential estimator of the softmax (and, through e^{-|x|²/2 - |y|²/2}, the Gaussian)
// kernel: products of Rademacher projections of a random degree (maclaurin.h has the mathematics,
// maclaurin_features.h the draw). Parameters: the degree law — Poisson(λ), by default at the
// pair's variance-optimal λ* = √c (Wacker et al.'s p(n) ∝ a_n √(second moment of term n)), from
// the sets as OPRF's A* is (CRT eq. 8: one λ from O(Ld) averages) — or Kar & Karnick's geometric
// p(n) = 2^{-(n+1)}.
//
// Closed form for i.i.d. features; Monte Carlo on the full path (its own trial kernel); feature
// maps. The couplings arrange Gaussian frequencies ω (orthogonal, simplex, quasi-Monte Carlo): the
// Maclaurin features draw a degree and sign vectors instead, so they are refused (i.i.d. only).

#include "core/mechanisms/mechanism.h"

namespace rfscope {

class MaclaurinRf final : public Mechanism {
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
};

}  // namespace rfscope
