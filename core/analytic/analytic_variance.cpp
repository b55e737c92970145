#include "core/analytic/analytic_variance.h"

#include <boost/math/policies/error_handling.hpp>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/math/failure_text.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

// "'pos' under orf, simrf; 'trig' under orf": the coupled closed forms the registry offers.
std::string coupledClosedForms() {
  std::string out;
  for (const Mechanism* mechanism : allMechanisms()) {
    std::string couplings;
    for (const CouplingInfo& coupling : allCouplings())
      if (coupling.coupling != Coupling::Iid && mechanism->hasClosedForm(coupling.coupling))
        couplings += (couplings.empty() ? "" : ", ") + coupling.id;
    if (!couplings.empty())
      out += (out.empty() ? "" : "; ") + ("'" + mechanism->info().id + "' under " + couplings);
  }
  return out;
}

AnalyticAnswer evaluate(const EstimatorSpec& request, const PairInput& pair) {
  using Variance = Outcome<AnalyticVariance>;
  AnalyticAnswer answer;
  const auto& g = pair.geometry;
  answer.logKernelValue = logKernelValue(request.kernel, g);
  const Mechanism& mechanism = *request.mechanism;
  if (!mechanism.hasClosedForm(request.coupling)) {
    static const std::string known = coupledClosedForms();
    answer.variance = Variance::unavailable("no closed form for mechanism '" + mechanism.info().id +
                                            "' with coupling '" + couplingId(request.coupling) +
                                            "' (coupled closed forms: " + known + ")");
    return answer;
  }
  VarianceResult one = mechanism.logVariance(pair, request.parameters);
  answer.parametersUsed = std::move(one.parametersUsed);
  if (!one.logVariance) {
    answer.variance = Variance::unavailable(one.logVariance.reason());
    return answer;
  }
  const Outcome<CoupledVariance> coupled =
      mechanism.coupledLogVariance(request.coupling, request.features, pair, one);
  if (!coupled) {
    answer.variance = Variance::unavailable(coupled.reason());
    return answer;
  }
  const double scale = logVarianceScale(request.kernel, g);
  AnalyticVariance& variance = answer.variance.emplace();
  variance.logConformity = coupled->logConformity;
  if (coupled->logAbsOrthogonalityGap) {
    variance.orthogonalityGapSign = coupled->orthogonalityGapSign;
    variance.logAbsOrthogonalityGap = *coupled->logAbsOrthogonalityGap + scale;
  }
  if (coupled->logAbsBias) {  // K̂_SM = K̂ e^{(|x|² + |y|²)/2}: the bias scales by √scale
    variance.biasSign = coupled->biasSign;
    variance.logAbsBias = *coupled->logAbsBias + 0.5 * scale;
  }
  if (coupled->logVariance) {
    variance.logVariance = *coupled->logVariance + scale;
  } else {
    // M i.i.d. features: the estimator is their mean, so the variance divides by M.
    variance.logVariance =
        *one.logVariance + scale - std::log(static_cast<double>(request.features));
  }
  return answer;
}

}  // namespace

AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& y) {
  return evaluateAnalytic(request, PairInput(x, y));
}

AnalyticAnswer evaluateAnalytic(const EstimatorSpec& request, const PairInput& pair) {
  // A special function that gives up at an extreme input (Boost.Math throws: a domain, pole,
  // overflow or evaluation error) means no closed-form value at this input: a reason, as for a
  // combination without a closed form, so that one such pair never aborts an experiment.
  // InvalidParameter (bad input, a std::invalid_argument) is not caught.
  auto unavailable = [&](const std::exception& error) {
    AnalyticAnswer answer;
    answer.logKernelValue = logKernelValue(request.kernel, pair.geometry);
    answer.variance = Outcome<AnalyticVariance>::unavailable(
        "the closed form cannot be evaluated at this input: " + failureText(error));
    return answer;
  };
  try {
    return evaluate(request, pair);
  } catch (const std::domain_error& error) {
    return unavailable(error);
  } catch (const std::range_error& error) {
    return unavailable(error);
  } catch (const std::overflow_error& error) {
    return unavailable(error);
  } catch (const std::underflow_error& error) {
    return unavailable(error);
  } catch (const boost::math::evaluation_error& error) {
    return unavailable(error);
  } catch (const boost::math::rounding_error& error) {
    return unavailable(error);
  }
}

}  // namespace rfscope
