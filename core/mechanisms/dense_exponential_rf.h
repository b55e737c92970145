#pragma once
// The dense-exponential mechanisms (SDERF, ADERF; dense_exponential.h has the mathematics): DERFs
// whose matrices are chosen from the d×d second moments of the data sets, as CRT eq. 8 chooses
// OPRF's A* from their mean |x + y|². The matrices do not fit scalar parameters: the data-driven
// parameters carry them as the set's attachment (ParameterSet::attach), with their objective as
// the visible value. Without one, at a single pair (the analytic and Monte Carlo commands), the
// set is that pair, as for OPRF.
//
// Closed form: one i.i.d. feature (coupled features: Monte Carlo only). Monte Carlo: the dense
// trial family on the full path (ω in full: Σ 2a_l ω_l² is no function of a pair frame).
// Feature maps: one column per ω, exp(log D + Σ a_l ω_l² + Σ b_l ω_l x̃_l - ½(|x|² + |x̃|²)).

#include <memory>
#include <string>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/dense_exponential.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

// The matrices a DERF mechanism chose for a set (or a pair), as a parameter set's attachment.
struct DerfAttachment final : ParameterAttachment {
  std::string mechanism;  // the id of the mechanism that chose them
  DerfChoice choice;
};

class DenseExponentialRf : public Mechanism {
 public:
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  ParameterSet dataDrivenParameters(SetStatisticsSource& statistics) const override;
  bool usesSecondMoments() const override { return true; }
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;

  // The parameters (objective shown, matrices attached) the mechanism chooses for sets with
  // these second moments.
  ParameterSet chosenParameters(const DerfMoments& moments) const;

 protected:
  // The variant's optimum for sets with these second moments.
  virtual DerfChoice choose(const DerfMoments& moments) const = 0;

 private:
  // The attached matrices of `params` if they are this mechanism's, else those of the pair alone.
  DerfChoice matricesFor(const ParameterSet& params, const Eigen::VectorXd& x,
                         const Eigen::VectorXd& y) const;
};

}  // namespace rfscope
