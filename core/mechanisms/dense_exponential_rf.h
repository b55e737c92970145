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
#include <optional>
#include <string>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/dense_exponential.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

// The matrices a DERF mechanism chose for a set (or a pair), as a parameter set's attachment,
// with the set's moments (another variant, e.g. ADERF's dense A, is chosen from them).
struct DerfAttachment final : ParameterAttachment {
  std::string mechanism;  // the id of the mechanism that chose them
  DerfMoments moments;
  bool denseA = false;  // the variant chosen
  DerfChoice choice;
};

class DenseExponentialRf : public Mechanism {
 public:
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  ParameterSet dataDrivenParameters(SetStatisticsSource& statistics) const override;
  bool usesSecondMoments() const override { return true; }
  // Dense d × d matrices (A, B, their factorisations): 8 MiB each at d = 1024.
  int maxDimension() const override { return 1024; }
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;

  // The parameters (objective shown, matrices attached) the mechanism chooses for sets with
  // these second moments, in the variant `params` select (ADERF's dense_a).
  ParameterSet chosenParameters(const DerfMoments& moments,
                                const ParameterSet& params = ParameterSet()) const;

 protected:
  // The optimum for sets with these second moments (a dense A where the variant has one).
  virtual DerfChoice choose(const DerfMoments& moments, bool denseA) const = 0;
  // Whether `params` select a dense A.
  virtual bool denseA(const ParameterSet& /*params*/) const { return false; }

 private:
  // This mechanism's attachment of `params`, if any.
  const DerfAttachment* attached(const ParameterSet& params) const;
  // The attached matrices in the variant `params` select, if any.
  std::optional<DerfChoice> attachedChoice(const ParameterSet& params) const;
  // The matrices for `params`: attached ones (re-chosen from the attached moments for another
  // variant), else those of the pair alone.
  DerfChoice matricesFor(const ParameterSet& params, const Eigen::VectorXd& x,
                         const Eigen::VectorXd& y) const;
};

}  // namespace rfscope
