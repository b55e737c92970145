#include "core/experiments/hybrid_relative_error.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/analytic/hrf_relative_error.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

// log ε at radius r and angle θ (ε is the same for the Gaussian and the softmax kernel).
double logRelativeError(const EstimatorSpec& request, double r, double theta) {
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

HybridRelativeErrorSettings HybridRelativeError::parse(const ParameterSet& params) const {
  HybridRelativeErrorSettings s;
  s.rMin = params.real("r-min");
  s.rMax = params.real("r-max");
  s.radii = valueGrid(s.rMin, s.rMax, params.integer("r-steps"), false);
  s.thetas = valueGrid(0, std::numbers::pi, params.integer("theta-steps"), false);
  s.features = params.integer("features");
  s.n = params.integer("n");
  return s;
}

std::vector<ParameterError> HybridRelativeError::crossValidate(const ParameterSet& params) const {
  const HybridRelativeErrorSettings settings = parse(params);
  if (settings.rMin >= settings.rMax)
    return {{"r-max", "parameter 'r-max': must be larger than r-min"}};
  return {};
}

ParameterSet HybridRelativeError::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"r-steps", std::int64_t{10}}, {"theta-steps", std::int64_t{100}}});
  return defaultsWith({{"r-steps", std::int64_t{2000}}, {"theta-steps", std::int64_t{10000}}});
}

Computed<HybridRelativeErrorResult> HybridRelativeError::compute(
    const HybridRelativeErrorSettings& settings,
    ResultContext<HybridRelativeErrorResult>& context) const {
  const std::int64_t m = settings.features;
  const std::vector<double>& radii = settings.radii;
  // TrigRF and FAVOR+ from their mechanisms' closed forms (an independent check of Lemma 3.4);
  // the hybrid, W(r)/√(2m) and the bound from core/analytic.
  EstimatorSpec trig, favor;
  trig.mechanism = findMechanism("trig");
  favor.mechanism = findMechanism("pos-hyp");
  for (auto* request : {&trig, &favor}) {
    request->kernel = Kernel::Softmax;
    request->features = m;
  }
  // One row per radius, one cell each: the largest log error over the θ grid per estimator.
  std::vector<std::array<double, 3>> worst(radii.size());
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k != end; ++k) {
      const double r = radii[k];
      worst[k].fill(-std::numeric_limits<double>::infinity());
      for (double theta : settings.thetas) {
        if (context.cancelled()) return;
        const double e[3] = {logRelativeError(trig, r, theta), logRelativeError(favor, r, theta),
                             logAngularHybridRelativeError(theta, r, m, settings.n)};
        for (int i = 0; i < 3; ++i)
          if (e[i] > worst[k][i]) worst[k][i] = e[i];
      }
    }
  };
  Computed<HybridRelativeErrorResult> computed;
  HybridRelativeErrorResult& result = computed.result;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const double r = radii[k];
      result.radius.push_back(r);
      result.trig.push_back(std::exp(worst[k][0]));
      result.favor.push_back(std::exp(worst[k][1]));
      result.hybrid.push_back(std::exp(worst[k][2]));
      result.lemma.push_back(std::exp(logMaxBaseRelativeError(r, m)));
      result.bound.push_back(std::exp(logAngularHybridBound(r, m, settings.n)));
    }
  };
  CellGrid grid;
  grid.rows = radii.size();
  grid.rowsPerChunk = 8;
  grid.distributable = true;  // commitRows writes the result's rows only
  computed.status = runCellGrid(
      context, grid, work,
      {{&result.radius, &result.trig, &result.favor, &result.hybrid, &result.lemma, &result.bound},
       [&] { context.publishPartialResult(result); }});
  return computed;
}

Presentation HybridRelativeError::present(const HybridRelativeErrorSettings& settings,
                                          const HybridRelativeErrorResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title =
      "Maximal relative error on the sphere S(r), m = " + std::to_string(settings.features) +
      ", n = " + formatParameterValue(settings.n);
  table.hints.xColumn = "r";
  table.hints.xLabel = "radius r";
  table.hints.yLabel = "max over θ of √MSE / SM";
  table.hints.xShortLabel = "r";
  table.hints.yShortLabel = "max_θ √MSE / SM";
  table.hints.yLog = true;
  table.addColumn("r", "radius r", result.radius);
  table.addColumn("trig", "TrigRF, max over θ", result.trig);
  table.addColumn("favor", "FAVOR+, max over θ", result.favor);
  table.addColumn("hybrid", "angular hybrid, max over θ", result.hybrid);
  table.addColumn("lemma-3-4", "W(r)/√(2m) (Lemma 3.4)", result.lemma);
  table.addColumn("theorem-3-5", "hybrid bound (Thm 3.5, r ≥ 1)", result.bound);
  table.hints.series = {
      {"TrigRF", "trig", "", "", "trig", SeriesStyle::Line, "", false},
      {"FAVOR+", "favor", "", "", "pos-hyp", SeriesStyle::Line, "", false},
      {"angular hybrid", "hybrid", "", "", "hybrid-angular", SeriesStyle::Line, "", false},
      {"W(r)/√(2m) (Lemma 3.4)", "lemma-3-4", "", "", "lemma-3-4", SeriesStyle::Points, "", false,
       "W(r)/√(2m)"},
      {"hybrid bound (Thm 3.5; defined for r ≥ 1 only)", "theorem-3-5", "", "", "theorem-3-5",
       SeriesStyle::Line, "", false, "Thm 3.5 bound"}};
  return shown;
}

}  // namespace rfscope
