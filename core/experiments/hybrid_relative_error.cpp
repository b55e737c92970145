#include "core/experiments/hybrid_relative_error.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/analytic/hrf_relative_error.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// log ε at radius r and angle θ (ε is the same for the Gaussian and the softmax kernel).
double logRelativeError(EstimatorSpec& request, double r, double theta) {
  Eigen::VectorXd x(2), y(2);
  x << r, 0;
  y << r * std::cos(theta), r * std::sin(theta);
  const AnalyticAnswer answer = evaluateAnalytic(request, x, y);
  return answer.variance ? 0.5 * answer.variance->logVariance - answer.logKernelValue : kNaN;
}

}  // namespace

const ExperimentInfo& HybridRelativeError::info() const {
  static const ExperimentInfo info{
      "hybrid-relative-error", "Max relative error on the sphere vs r",
      "HRF (Choromanski et al. 2022)",
      "HRF Lemma 3.4 / Thm 3.5: the largest relative error over pairs on S(r) of TrigRF, FAVOR+ "
      "and the angular hybrid, with the closed form and the hybrid's bound"};
  return info;
}

std::vector<ParameterSpec> HybridRelativeError::parameters() const {
  auto low = realParameter("r-min", "r from", 0.25, 1e-3, 10, "smallest radius");
  auto high = realParameter("r-max", "r to", 2.5, 1e-3, 10, "largest radius");
  auto steps = integerParameter("r-steps", "r steps", 50, 2, 2000, "number of radii");
  auto angles = integerParameter("theta-steps", "θ grid", 1000, 10, 100000,
                                 "angles in [0, π] over which the maximum is taken");
  for (auto* spec : {&low, &high, &steps, &angles})
    spec->group = "Data";
  auto m = integerParameter("features", "Features m", 128, 1, 1000000,
                            "random features of every estimator");
  auto n = integerParameter("n", "Hybrid n", 8, 1, 1000000, "Gaussian τ's of the hybrid's λ̂");
  m.group = n.group = "Estimator";
  return {low, high, steps, angles, m, n};
}

std::vector<ParameterError> HybridRelativeError::crossValidate(const ParameterSet& params) const {
  if (params.real("r-min") >= params.real("r-max"))
    return {{"r-max", "parameter 'r-max': must be larger than r-min"}};
  return {};
}

RunResult HybridRelativeError::run(const ParameterSet& params, RunContext& context) const {
  const std::int64_t m = params.integer("features");
  const std::vector<double> radii =
      valueGrid(params.real("r-min"), params.real("r-max"), params.integer("r-steps"), false);
  const std::vector<double> thetas =
      valueGrid(0, std::numbers::pi, params.integer("theta-steps"), false);

  RunResult result;
  Table& table = result.table;
  table.hints.title = "Maximal relative error on the sphere S(r), m = " + std::to_string(m) +
                      ", n = " + formatParameterValue(params.integer("n"));
  table.hints.xColumn = "r";
  table.hints.xLabel = "radius r";
  table.hints.yLabel = "max over θ of √MSE / SM";
  table.hints.yLog = true;
  table.columns = {{"r", "radius r", {}},
                   {"trig", "TrigRF, max over θ", {}},
                   {"favor", "FAVOR+, max over θ", {}},
                   {"hybrid", "angular hybrid, max over θ", {}},
                   {"lemma-3-4", "W(r)/√(2m) (Lemma 3.4)", {}},
                   {"theorem-3-5", "hybrid bound (Thm 3.5, r ≥ 1)", {}}};
  table.hints.series = {
      {"TrigRF", "trig", "", "", "trig", SeriesStyle::Line, ""},
      {"FAVOR+", "favor", "", "", "pos-hyp", SeriesStyle::Line, ""},
      {"angular hybrid", "hybrid", "", "", "hybrid-angular", SeriesStyle::Line, ""},
      {"W(r)/√(2m) (Lemma 3.4)", "lemma-3-4", "", "", "lemma-3-4", SeriesStyle::Points, ""},
      {"hybrid bound (Thm 3.5)", "theorem-3-5", "", "", "theorem-3-5", SeriesStyle::Line, ""}};

  // TrigRF and FAVOR+ from their mechanisms' closed forms (an independent check of Lemma 3.4);
  // the hybrid, W(r)/√(2m) and the bound from core/analytic.
  EstimatorSpec trig, favor;
  trig.mechanism = findMechanism("trig");
  favor.mechanism = findMechanism("pos-hyp");
  for (auto* request : {&trig, &favor}) {
    request->kernel = Kernel::Softmax;
    request->features = m;
  }
  const std::int64_t n = params.integer("n");
  for (std::size_t k = 0; k < radii.size(); ++k) {
    if (stopIfCancelled(context, result)) return result;
    const double r = radii[k];
    double worst[3] = {-std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()};
    for (double theta : thetas) {
      const double e[3] = {logRelativeError(trig, r, theta), logRelativeError(favor, r, theta),
                           logAngularHybridRelativeError(theta, r, m, n)};
      for (int i = 0; i < 3; ++i)
        if (e[i] > worst[i]) worst[i] = e[i];
    }
    table.columns[0].values.push_back(r);
    for (int i = 0; i < 3; ++i)
      table.columns[1 + i].values.push_back(std::exp(worst[i]));
    table.columns[4].values.push_back(std::exp(logMaxBaseRelativeError(r, m)));
    table.columns[5].values.push_back(std::exp(logAngularHybridBound(r, m, n)));
    context.reportProgress(static_cast<double>(k + 1) / static_cast<double>(radii.size()));
    if (k + 1 < radii.size() && k % 8 == 7) context.publishPartial(table);
  }
  return result;
}

}  // namespace rfscope
