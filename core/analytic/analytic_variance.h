#pragma once
// The exact variance (= MSE for the unbiased estimators; orf-fixed-norm's biased ones carry their
// bias beside it) of an M-feature estimator of a kernel at
// one pair (x, y), in the log domain, for a mechanism, a coupling and parameters. The mechanism
// gives the Gaussian-kernel variance of one feature and, under couplings where it has one, of M
// coupled features (Mechanism::hasClosedForm, coupledLogVariance: PosRF under orf and simrf, TrigRF
// under orf); this layer divides i.i.d. variances by M and converts to the softmax kernel. Any
// other combination has no closed form and is reported as not available, with the reason.

#include <cstdint>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "core/math/kernel.h"
#include "core/math/log_math.h"
#include "core/mechanisms/estimator_spec.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

// The closed form of the M-feature estimator of the kernel.
struct AnalyticVariance {
  double logVariance = kNegativeInfinity;
  // RF-conformity ρ (SimRF eq. 10) of the coupling, where the mechanism's theory has one (PosRF).
  std::optional<double> logConformity;
  // The orthogonality gap Var_IID - Var_ORF of the M-feature estimator, where the mechanism's
  // theory has one (PosRF and TrigRF under ORF, SimRF eqs. 25, 26 for M <= d): its sign (+1 where
  // ORF is better, -1 where it is worse, 0 where equal) and log of its magnitude.
  int orthogonalityGapSign = 0;
  std::optional<double> logAbsOrthogonalityGap;
  // The bias E K̂ - K of a biased estimator (orf-fixed-norm): sign and log magnitude; absent where
  // the estimator is unbiased. logVariance is about the estimator's own mean, so the mean squared
  // error against the kernel is Var + bias² (logMeanSquaredError).
  int biasSign = 0;
  std::optional<double> logAbsBias;

  // log(Var + bias²): the MSE against the kernel (= logVariance for unbiased estimators).
  double logMeanSquaredError() const {
    return logAbsBias ? logAddExp(logVariance, 2 * *logAbsBias) : logVariance;
  }
};

struct AnalyticAnswer {
  double logKernelValue = 0;
  ParameterSet parametersUsed;  // the mechanism's, resolved (where it got that far)
  // The variance, or why there is no closed form.
  Outcome<AnalyticVariance> variance = Outcome<AnalyticVariance>::unavailable({});
};

// Never throws for a value that cannot be computed: a special function giving up at an extreme
// input (Boost.Math's domain, pole, overflow and evaluation errors) is an unavailable variance with
// the reason ("the closed form cannot be evaluated at this input: Overflow Error"), like a
// combination without a closed form. Bad parameters still throw InvalidParameter.
AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y);
// The same at a pair whose geometry is already computed (one pair, many requests).
AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const PairInput& pair);

}  // namespace rfscope
