#pragma once
// OPRF (FAVOR++, CRT Thm 3.3): the GERF with s = +1 and the real A minimising the variance,
// A* = (1 - r)/8 where r = 1/ρ* is the positive root of d r² - (d + 2u) r - 2u = 0, u = |x + y|².
//   Var = K² expm1(g),  g = d log((1 + r)/2) - (d/2) log r + u/r.
// The printed ρ* is 0/0 as u → 0; r - 1 is evaluated in a form free of cancellation instead.
// An explicit A (e.g. the data-driven A* of CRT eq. 8, shared by a set of pairs) gives that GERF
// with s = +1 instead of the pair's own optimum.

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

// r - 1 for given d and u = |x + y|² (cancellation-free).
double oprfRMinusOne(int dimension, double u);

// log Var of one OPRF feature (Gaussian kernel), given |x - y|² and |x + y|².
double oprfLogVariance(int dimension, double diffNormSquared, double sumNormSquared);

// A* = (1 - 1/ρ*)/8 at the mean |x + y|² of two sets (CRT eq. 8).
double dataDrivenOprfA(const SetStatistics& stats);

class Oprf final : public Mechanism {
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
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;
};

}  // namespace rfscope
