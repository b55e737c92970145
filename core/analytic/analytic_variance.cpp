#include "core/analytic/analytic_variance.h"

#include <cmath>
#include <utility>

#include "core/couplings/positive_conformity.h"
#include "core/couplings/trig_orthogonality.h"

namespace rfscope {

AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y) {
  return evaluateAnalytic(request, PairInput(x, y));
}

AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const PairInput& pair) {
  AnalyticAnswer answer;
  const auto& g = pair.geometry;
  answer.logKernelValue = logKernelValue(request.kernel, g);
  const std::string& id = request.mechanism->info().id;
  const Coupling kind = request.coupling;
  const bool known = hasPositiveClosedForms(kind);
  const bool orthogonalTrig = id == "trig" && kind == Coupling::Orthogonal;
  if (!known || (kind != Coupling::Iid && id != "pos" && !orthogonalTrig)) {
    answer.unavailableReason =
        "no closed form for mechanism '" + id + "' with coupling '" + couplingId(kind) + "'" +
        (known ? " (coupled closed forms exist for 'pos', and for 'trig' under 'orf')" : "");
    return answer;
  }
  VarianceResult one = request.mechanism->logVariance(pair, request.parameters);
  answer.parametersUsed = std::move(one.parametersUsed);
  if (!one.available) {
    answer.unavailableReason = one.unavailableReason;
    return answer;
  }
  const double scale = logVarianceScale(request.kernel, g);
  if (orthogonalTrig) {
    answer.available = true;
    answer.logVariance =
        orthogonalTrigLogVariance(g.dimension, request.features, g.diffNormSquared) + scale;
    const double gap = trigOrthogonalityGap(g.dimension, request.features, g.diffNormSquared);
    answer.hasOrthogonalityGap = true;
    answer.orthogonalityGapSign = (gap > 0) - (gap < 0);
    answer.logAbsOrthogonalityGap = std::log(std::abs(gap)) + scale;
    return answer;
  }
  if (id == "pos") {
    const ConformityValue conformity = positiveConformity(kind, g.dimension, g.sumNormSquared);
    if (!conformity.available) {
      answer.unavailableReason = kind == Coupling::Simplex && g.dimension < 2
                                     ? "simplex coupling needs d >= 2"
                                     : "RF-conformity is evaluated for |x + y|² <= 700 only";
      return answer;
    }
    answer.hasConformity = true;
    answer.logConformity = conformity.logConformity;
    if (kind == Coupling::Orthogonal) {
      const double logGap = positiveOrthogonalityLogGap(g.dimension, request.features,
                                                        g.diffNormSquared, g.sumNormSquared);
      answer.hasOrthogonalityGap = !std::isnan(logGap);
      answer.orthogonalityGapSign = logGap == kNegativeInfinity ? 0 : 1;
      answer.logAbsOrthogonalityGap = logGap + scale;
    }
    if (kind != Coupling::Iid) {
      answer.available = true;
      answer.logVariance = coupledPositiveLogVariance(kind, g.dimension, request.features,
                                                      g.diffNormSquared, g.sumNormSquared) +
                           scale;
      return answer;
    }
  }
  answer.available = true;
  // M i.i.d. features: the estimator is their mean, so the variance divides by M.
  answer.logVariance = one.logVariance + scale - std::log(static_cast<double>(request.features));
  return answer;
}

}  // namespace rfscope
